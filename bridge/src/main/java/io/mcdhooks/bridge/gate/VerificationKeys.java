package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The public keys that verify signed hooks' verdicts, as one Secret holds them: each entry
 * {@code <hook>.<kid>} a PEM Ed25519 public key. A key id {@code node_<node name>} is bound to that
 * node: it verifies only verdicts about that node, so a node's key cannot answer for another node
 * or for a pool. Pure and immutable; a reload makes a new one.
 */
public final class VerificationKeys {

    /** The one Secret, in the bridge's namespace, read by name. */
    public static final String SECRET = "mcdhooks-verification-keys";
    /** Key ids of node-local hooks: {@code node_<node name>}. */
    public static final String NODE_KID_PREFIX = "node_";

    public static final VerificationKeys NONE = new VerificationKeys(Map.of());

    /** A hook name (a DNS label: no dot), a dot, a key id. */
    private static final Pattern ENTRY =
            Pattern.compile("([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)\\.([-._A-Za-z0-9]{1,253})");

    private final Map<String, Map<String, PublicKey>> byHook;

    private VerificationKeys(Map<String, Map<String, PublicKey>> byHook) {
        this.byHook = byHook;
    }

    /** What a load made of the Secret's entries: the keys, and what was wrong with the rest. */
    public record Loaded(VerificationKeys keys, List<String> problems) {}

    /**
     * Reads entries (name to PEM). An entry that does not parse keeps what {@code previous} had
     * under its name, if anything: a botched edit of one key does not revoke it.
     */
    public static Loaded load(Map<String, String> entries, VerificationKeys previous) {
        Map<String, Map<String, PublicKey>> keys = new HashMap<>();
        List<String> problems = new ArrayList<>();
        entries.forEach((name, pem) -> {
            var entry = ENTRY.matcher(name);
            if (!entry.matches()) {
                problems.add("entry '" + name + "' is not <hook>.<kid>");
                return;
            }
            String hook = entry.group(1);
            String kid = entry.group(3);
            PublicKey key;
            try {
                key = VerdictSignatures.publicKey(pem);
            } catch (IllegalArgumentException e) {
                problems.add("entry '" + name + "': " + e.getMessage());
                key = previous.byHook.getOrDefault(hook, Map.of()).get(kid);
            }
            if (key != null) {
                keys.computeIfAbsent(hook, h -> new HashMap<>()).put(kid, key);
            }
        });
        Map<String, Map<String, PublicKey>> frozen = new HashMap<>();
        keys.forEach((hook, kids) -> frozen.put(hook, Map.copyOf(kids)));
        return new Loaded(new VerificationKeys(Map.copyOf(frozen)), List.copyOf(problems));
    }

    /**
     * The keys that may sign {@code verdict}: its hook's, less node-bound keys of other nodes.
     * A node-bound key never signs a pool verdict.
     */
    public Map<String, PublicKey> forVerdict(Verdict verdict) {
        Map<String, PublicKey> all = byHook.getOrDefault(verdict.hook(), Map.of());
        Map<String, PublicKey> usable = new HashMap<>();
        all.forEach((kid, key) -> {
            if (!kid.startsWith(NODE_KID_PREFIX) || kid.equals(nodeKid(verdict.node()))) {
                usable.put(kid, key);
            }
        });
        return usable;
    }

    /** The key id bound to {@code node}, or {@code null} for no node. */
    public static String nodeKid(String node) {
        return node == null ? null : NODE_KID_PREFIX + node;
    }

    /** How many keys it holds, for logs. */
    public int size() {
        return byHook.values().stream().mapToInt(Map::size).sum();
    }
}
