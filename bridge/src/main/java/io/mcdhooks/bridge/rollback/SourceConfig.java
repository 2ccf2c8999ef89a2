package io.mcdhooks.bridge.rollback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One MachineConfig that a rendered config was made from, as a rollback needs it: what selects it
 * into a pool (its labels), who owns it, and its {@code spec}, kept as read so that a restore
 * writes back exactly what was there. A snapshot keeps the whole spec only of the administrator's
 * MachineConfigs, the only ones a rollback writes; of the others it keeps the digest, which tells
 * whether they changed (the MCO's base configs hold every file of the OS: kept whole they would
 * make a snapshot megabytes).
 *
 * @param owners what marks it as not the administrator's ({@link Ownership#of}); empty: the administrator's
 * @param spec   its spec; empty in a snapshot for one that is not the administrator's
 * @param digest SHA-256 of its spec with keys in order, whatever the order read
 */
public record SourceConfig(
        String name, Map<String, String> labels, List<String> owners, Map<String, Object> spec, String digest) {

    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true);

    public SourceConfig {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        owners = owners == null ? List.of() : List.copyOf(owners);
        spec = spec == null ? Map.of() : spec;
        Objects.requireNonNull(digest, "digest");
    }

    /** A MachineConfig as the cluster has it now, its digest computed from {@code spec}. */
    public static SourceConfig of(
            String name, Map<String, String> labels, List<String> owners, Map<String, Object> spec) {
        return new SourceConfig(name, labels, owners, spec, digest(spec == null ? Map.of() : spec));
    }

    /** Whether the administrator wrote it: no controller generated it and no operator owns it. */
    public boolean administrators() {
        return owners.isEmpty();
    }

    /** What a snapshot keeps of it: all of the administrator's; of another's, all but its spec. */
    public SourceConfig kept() {
        return administrators() ? this : new SourceConfig(name, labels, owners, Map.of(), digest);
    }

    /** Whether {@code other} has the same spec and labels: nothing a rollback would write back. */
    public boolean sameAs(SourceConfig other) {
        return digest.equals(other.digest) && labels.equals(other.labels);
    }

    static String digest(Map<String, Object> spec) {
        try {
            byte[] canonical = CANONICAL.writeValueAsBytes(spec);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot digest a MachineConfig's spec", e);
        }
    }
}
