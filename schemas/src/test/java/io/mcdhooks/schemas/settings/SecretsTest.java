package io.mcdhooks.schemas.settings;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "sasl.jaas.config",
                "ssl.keystore.password",
                "ssl.key.password",
                "ssl.truststore.password",
                "ssl.keystore.key",
                "sasl.oauthbearer.client.credentials.client.secret",
                "sasl.oauthbearer.assertion.private.key.passphrase",
                "MCDHOOKS_API_TOKEN",
                "MCDHOOKS_STORE_PASSWORD"
            })
    void masksPasswordsKeysAndJaasConfigurations(String name) {
        assertThat(Secrets.isSecret(name)).isTrue();
        assertThat(Secrets.shown(name, "hunter2")).isEqualTo(Secrets.MASK);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "bootstrap.servers",
                "key.serializer",
                "key.deserializer",
                "ssl.keystore.location",
                "ssl.keystore.type",
                "security.protocol",
                "sasl.mechanism",
                "MCDHOOKS_SIGNING_KEY_FILE",
                "MCDHOOKS_SIGNING_KEY_ID",
                "MCDHOOKS_CLUSTER"
            })
    void showsWhatIsNoSecret(String name) {
        assertThat(Secrets.isSecret(name)).isFalse();
        assertThat(Secrets.shown(name, "b:9092")).isEqualTo("b:9092");
    }
}
