package io.mcdhooks.bridge.publish;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Deterministic CloudEvents ids: the same transition of the same object always gets the same id,
 * however often and whenever it is observed, so a consumer can tell a replay from news.
 */
public final class EventIds {

    private EventIds() {}

    /**
     * @param object the object's uid (its name when the uid is unknown): a node deleted and made
     *               again under its old name is another object
     */
    public static String lifecycle(
            String cluster, String kind, String object, String target, String transition, String discriminator) {
        return nameBased("lifecycle", cluster, kind, object, target, transition, discriminator);
    }

    public static String gateRequest(String gateId, int attempt) {
        return nameBased("gate-request", gateId, Integer.toString(attempt));
    }

    private static String nameBased(String... parts) {
        // Name-based UUID (RFC 4122 version 3): stable, fixed length, and no separator ambiguity
        // because every part is length-prefixed.
        StringBuilder name = new StringBuilder();
        for (String part : parts) {
            String p = part == null ? "" : part;
            name.append(p.length()).append(':').append(p).append('|');
        }
        return UUID.nameUUIDFromBytes(name.toString().getBytes(StandardCharsets.UTF_8))
                .toString();
    }
}
