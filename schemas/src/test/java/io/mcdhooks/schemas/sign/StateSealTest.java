package io.mcdhooks.schemas.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A cluster's seal on its own state records: only its key makes it, and it covers what the record says. */
class StateSealTest {

    private static final byte[] BODY = "{\"cluster\":\"prod-1\"}".getBytes(StandardCharsets.UTF_8);
    private final StateSeal mine = new StateSeal(key(1));
    private final StateSeal theirs = new StateSeal(key(2));

    @Test
    void verifiesOnlyWhatItsOwnKeySealedUnchanged() {
        String seal = mine.seal("prod-1", "io.mcdhooks.gate.decision.v1", "id-1", BODY);

        assertThat(mine.verifies("prod-1", "io.mcdhooks.gate.decision.v1", "id-1", BODY, seal))
                .isTrue();
        assertThat(mine.verifies(
                        "prod-1",
                        "io.mcdhooks.gate.decision.v1",
                        "id-1",
                        BODY,
                        theirs.seal("prod-1", "io.mcdhooks.gate.decision.v1", "id-1", BODY)))
                .isFalse();
        assertThat(mine.verifies("prod-2", "io.mcdhooks.gate.decision.v1", "id-1", BODY, seal))
                .isFalse();
        assertThat(mine.verifies("prod-1", "io.mcdhooks.gate.request.v1", "id-1", BODY, seal))
                .isFalse();
        assertThat(mine.verifies("prod-1", "io.mcdhooks.gate.decision.v1", "id-2", BODY, seal))
                .isFalse();
        assertThat(mine.verifies("prod-1", "io.mcdhooks.gate.decision.v1", "id-1", "{}".getBytes(), seal))
                .isFalse();
        assertThat(mine.verifies("prod-1", "io.mcdhooks.gate.decision.v1", "id-1", BODY, null))
                .isFalse();
    }

    @Test
    void refusesAShortKey() {
        assertThatThrownBy(() -> new StateSeal(new byte[16]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 32");
    }

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }
}
