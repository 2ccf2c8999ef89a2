package io.mcdhooks.bridge.rollback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mcdhooks.schemas.sign.StateSeal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {

    private static final StateSeal KEY =
            new StateSeal("a-state-key-of-at-least-32-bytes!".getBytes(StandardCharsets.UTF_8));
    private static final SnapshotCodec CODEC = new SnapshotCodec("c1", KEY);

    @Test
    void aSnapshotComesBackAsItWasSpecsIncluded() throws Exception {
        // A MachineConfig's spec as the informer holds it: nested maps, lists, numbers, nulls
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = new ObjectMapper()
                .readValue(
                        "{\"config\":{\"ignition\":{\"version\":\"3.2.0\"},\"storage\":{\"files\":[{\"path\":\"/etc/x\","
                                + "\"mode\":420,\"contents\":{\"source\":\"data:,a%0A\"}}]}},\"kernelArguments\":null,"
                                + "\"fips\":false,\"kernelType\":\"\"}",
                        Map.class);
        ConfigSnapshot snapshot = snapshot(spec);

        SnapshotCodec.Sealed sealed = CODEC.encode(snapshot);

        assertThat(CODEC.decode(snapshot.key(), sealed.value(), sealed.seal())).contains(snapshot);
    }

    @Test
    void onlyWhatThisClusterSealedUnderThatKeyIsReadBack() {
        ConfigSnapshot snapshot = snapshot(Map.of("kernelArguments", List.of("nosmt")));
        SnapshotCodec.Sealed sealed = CODEC.encode(snapshot);

        // another cluster's key, or no seal
        SnapshotCodec other = new SnapshotCodec(
                "c1", new StateSeal("another-key-of-at-least-32-bytes!!".getBytes(StandardCharsets.UTF_8)));
        assertThat(other.decode(snapshot.key(), sealed.value(), sealed.seal())).isEmpty();
        assertThat(CODEC.decode(snapshot.key(), sealed.value(), null)).isEmpty();
        // the bytes altered after sealing
        byte[] altered = new String(sealed.value(), StandardCharsets.UTF_8)
                .replace("nosmt", "rd.break")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(CODEC.decode(snapshot.key(), altered, sealed.seal())).isEmpty();
        // moved to another key
        assertThat(CODEC.decode("c1/worker/rendered-worker-9999", sealed.value(), sealed.seal()))
                .isEmpty();
        // sealed, but not a snapshot
        byte[] junk = "[1,2".getBytes(StandardCharsets.UTF_8);
        assertThat(CODEC.decode(snapshot.key(), junk, KEY.seal("c1", SnapshotCodec.TYPE, snapshot.key(), junk)))
                .isEmpty();
        assertThat(Arrays.equals(altered, sealed.value())).isFalse();
    }

    @Test
    void aSnapshotOfAnotherClusterIsNotSealedInThisOnesName() {
        ConfigSnapshot theirs = new ConfigSnapshot("c2", "worker", "rendered-worker-1111", Instant.EPOCH, List.of());

        assertThatThrownBy(() -> CODEC.encode(theirs)).hasMessageContaining("c2");
    }

    private static ConfigSnapshot snapshot(Map<String, Object> spec) {
        return new ConfigSnapshot(
                "c1",
                "worker",
                "rendered-worker-1111",
                Instant.parse("2026-12-01T10:00:00Z"),
                List.of(SourceConfig.of(
                        "99-worker-kargs",
                        Map.of("machineconfiguration.openshift.io/role", "worker"),
                        List.of(),
                        spec)));
    }
}
