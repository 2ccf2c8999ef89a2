package io.mcdhooks.sandbox.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.sandbox.registry.ImagePusher.Platform;
import io.mcdhooks.sandbox.registry.junit.RegistryExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RegistryExtension.class)
class ForkedRegistryIT {

    @Test
    void servesTheDistributionApiOverTlsOnlyToItsUser(ForkedRegistry registry) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(registry.tls().clientContext())
                .build();

        HttpResponse<Void> anonymous = client.send(
                HttpRequest.newBuilder(registry.baseUri().resolve("/v2/")).build(),
                HttpResponse.BodyHandlers.discarding());

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
    }

    @Test
    void storesAnIndexOverTwoArchitecturesWhoseConfigsCarryTheKernelLabel(ForkedRegistry registry) throws Exception {
        ImagePusher pusher = registry.pusher();

        String index = pusher.pushOsImage(
                "rhcos/os",
                "4.16",
                Map.of(
                        Platform.of("amd64"), "5.14.0-427.13.1.el9_4.x86_64",
                        Platform.of("arm64"), "5.14.0-427.13.1.el9_4.aarch64"));

        HttpClient client = HttpClient.newBuilder()
                .sslContext(registry.tls().clientContext())
                .build();
        HttpResponse<String> byTag = client.send(
                HttpRequest.newBuilder(URI.create(registry.baseUri() + "/v2/rhcos/os/manifests/4.16"))
                        .header("Accept", ImagePusher.OCI_INDEX)
                        .header(
                                "Authorization",
                                ImagePusher.basic(RegistryExtension.USERNAME, RegistryExtension.PASSWORD)
                                        .basic())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(byTag.statusCode()).isEqualTo(200);
        assertThat(byTag.headers().firstValue("Docker-Content-Digest")).hasValue(index);
        assertThat(byTag.body()).contains("\"architecture\":\"amd64\"").contains("\"architecture\":\"arm64\"");
    }
}
