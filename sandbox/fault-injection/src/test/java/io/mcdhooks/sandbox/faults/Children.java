package io.mcdhooks.sandbox.faults;

import io.mcdhooks.bridge.TestEnvironment;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The child JVMs of a fault run: bridge replicas against the in-memory cluster, and an exec hook's runner. */
final class Children {

    static final String NAMESPACE = "mcdhooks";

    private Children() {}

    /**
     * A bridge replica named {@code identity}, acting with the bridges' service-account {@code
     * token}; its log in {@code dir}.
     *
     * @param extra settings on top of the test environment's, e.g. {@code MCDHOOKS_ROLLBACK}
     */
    static ChildJvm bridge(
            String bootstrapServers,
            String cluster,
            String clusterUrl,
            String token,
            String identity,
            String suffix,
            Path dir,
            Map<String, String> extra) {
        Map<String, String> env = TestEnvironment.bridge(bootstrapServers, cluster, suffix);
        env.put("HOSTNAME", "{name}");
        env.put("KAFKA_RECONNECT_BACKOFF_MAX_MS", "500");
        env.put("MCDHOOKS_NAMESPACE", NAMESPACE);
        env.put("MCDHOOKS_TICK", "200ms");
        env.put("MCDHOOKS_LAG_INTERVAL", "1s");
        env.put("MCDHOOKS_LEADER_ELECTION", "true");
        env.putAll(extra);
        return new ChildJvm(
                identity,
                "io.mcdhooks.bridge.Main",
                env,
                List.of(
                        "-Dkubernetes.master=" + clusterUrl,
                        "-Dkubernetes.auth.token=" + token,
                        "-Dkubernetes.auth.tryKubeConfig=false",
                        "-Dkubernetes.auth.tryServiceAccount=false",
                        "-Dkubernetes.namespace=" + NAMESPACE,
                        "-Dkubernetes.user.agent=" + ApiFaults.BRIDGE_USER_AGENT + "/{name}"),
                dir.resolve(identity + ".log"));
    }

    /**
     * The hook runner serving one exec hook: {@code command} gets the GateRequest as JSON on stdin
     * and passes it with exit code 0, fails it with 1.
     *
     * @param stages the stages it answers, as {@code MCDHOOKS_STAGES} lists them
     */
    static ChildJvm runner(
            String bootstrapServers,
            String hook,
            String stages,
            String command,
            String requests,
            String verdicts,
            String deadLetter,
            Path dir) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("KAFKA_SESSION_TIMEOUT_MS", "6000");
        env.put("KAFKA_HEARTBEAT_INTERVAL_MS", "1000");
        env.put("KAFKA_RECONNECT_BACKOFF_MAX_MS", "500");
        env.put("MCDHOOKS_HOOK_NAME", hook);
        env.put("MCDHOOKS_HOOK_KIND", "exec");
        env.put("MCDHOOKS_STAGES", stages);
        env.put("MCDHOOKS_EXEC_COMMAND", command);
        env.put("MCDHOOKS_GATE_REQUESTS_TOPIC", requests);
        env.put("MCDHOOKS_VERDICTS_TOPIC", verdicts);
        env.put("MCDHOOKS_DEAD_LETTER_TOPIC", deadLetter);
        env.put("MCDHOOKS_HTTP_PORT", "off");
        env.put("MCDHOOKS_HEARTBEAT_INTERVAL", "1s");
        env.put("MCDHOOKS_RETRY_BACKOFF", "500ms");
        env.put("MCDHOOKS_RETRY_BACKOFF_MAX", "2s");
        return new ChildJvm("runner", "io.mcdhooks.hooks.runner.Main", env, List.of(), dir.resolve("runner.log"));
    }
}
