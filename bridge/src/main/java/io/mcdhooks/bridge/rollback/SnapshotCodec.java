package io.mcdhooks.bridge.rollback;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.mcdhooks.schemas.sign.StateSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * A {@link ConfigSnapshot} as a record value, and back, under this cluster's {@link StateSeal}. A
 * snapshot is what a rollback writes into the cluster as MachineConfigs, which run as root on every
 * node of the pool: one this cluster's bridge did not seal, or that was changed after, is never
 * read back. Pure.
 */
public final class SnapshotCodec {

    /** The seal's type: a snapshot's seal never passes for another record's. */
    public static final String TYPE = "mcdhooks.config.snapshot.v1";

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final String cluster;
    private final StateSeal seal;

    public SnapshotCodec(String cluster, StateSeal seal) {
        this.cluster = cluster;
        this.seal = seal;
    }

    /** A record's value and its seal. */
    public record Sealed(byte[] value, String seal) {}

    public Sealed encode(ConfigSnapshot snapshot) {
        if (!cluster.equals(snapshot.cluster())) {
            throw new IllegalArgumentException("a snapshot of cluster " + snapshot.cluster() + ", not " + cluster);
        }
        try {
            byte[] value = JSON.writeValueAsBytes(snapshot);
            return new Sealed(value, seal.seal(cluster, TYPE, snapshot.key(), value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The snapshot under {@code key}, if this cluster sealed exactly these bytes under that key and
     * they hold one; empty otherwise (another cluster's, forged, altered or malformed).
     */
    public Optional<ConfigSnapshot> decode(String key, byte[] value, String sealed) {
        if (key == null || value == null || !seal.verifies(cluster, TYPE, key, value, sealed)) {
            return Optional.empty();
        }
        try {
            ConfigSnapshot snapshot = JSON.readValue(value, ConfigSnapshot.class);
            return key.equals(snapshot.key()) ? Optional.of(snapshot) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
