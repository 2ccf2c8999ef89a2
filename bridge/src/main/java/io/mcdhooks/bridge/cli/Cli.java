package io.mcdhooks.bridge.cli;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Grammar;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mcdhooks}: what is blocked, by which hook, and whether that hook is alive. Everything but
 * {@code override} and {@code plan} reads Kafka alone and needs no access to the Kubernetes API.
 *
 * <p>Exit codes: 0 done; 1 failed; 2 bad arguments; 3 Kafka unreachable; 4 the Kubernetes API
 * refused or could not be reached.
 */
@Command(
        name = "mcdhooks",
        mixinStandardHelpOptions = true,
        version = "mcdhooks 0.1.0",
        description = "Operate mcd-update-hooks: gates, hooks, lag, events, overrides, rollout plans.",
        subcommands = {
            StatusCommand.class,
            HooksCommand.class,
            LagCommand.class,
            TailCommand.class,
            OverrideCommand.class,
            PlanCommand.class
        })
public final class Cli implements Runnable {

    public static final int KAFKA_UNREACHABLE = 3;
    public static final int KUBERNETES_FAILED = 4;

    @Option(names = "--bootstrap-servers", description = "Kafka bootstrap servers (default: $KAFKA_BOOTSTRAP_SERVERS).")
    String bootstrapServers;

    @Option(names = "--cluster", description = "Only this cluster's gates and nodes (default: every cluster).")
    String cluster;

    @Option(
            names = "--timeout",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "How long to wait for Kafka (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--topic-lifecycle", defaultValue = Topics.LIFECYCLE, hidden = true)
    String lifecycleTopic;

    @Option(names = "--topic-gate-requests", defaultValue = Topics.GATE_REQUESTS, hidden = true)
    String requestsTopic;

    @Option(names = "--topic-verdicts", defaultValue = Topics.VERDICTS, hidden = true)
    String verdictsTopic;

    @Option(names = "--topic-gate-decisions", defaultValue = Topics.GATE_DECISIONS, hidden = true)
    String decisionsTopic;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "log4j2-cli.xml");
        }
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv(), args));
    }

    /** Runs a command line; returns its exit code. */
    public static int run(PrintWriter out, PrintWriter err, Map<String, String> env, String... args) {
        Cli cli = new Cli();
        cli.env = env;
        CommandLine line = new CommandLine(cli)
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
                    if (e instanceof KafkaUnreachable) {
                        err.println("mcdhooks: " + e.getMessage());
                        return KAFKA_UNREACHABLE;
                    }
                    if (e instanceof KubernetesClientException) {
                        err.println("mcdhooks: Kubernetes API: " + e.getMessage());
                        return KUBERNETES_FAILED;
                    }
                    err.println("mcdhooks: " + e.getMessage());
                    return 1;
                });
        return line.execute(args);
    }

    private Map<String, String> env = Map.of();

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Whether Kafka is given, by --bootstrap-servers or the environment: for commands it is optional to. */
    boolean kafkaGiven() {
        return bootstrapServers != null || env.containsKey("KAFKA_BOOTSTRAP_SERVERS");
    }

    /** Kafka settings from the environment, with --bootstrap-servers on top; checks Kafka answers. */
    KafkaSettings kafka() {
        KafkaSettings settings = KafkaSettings.fromEnvironment(env);
        if (bootstrapServers != null) {
            settings = settings.with(Map.of("bootstrap.servers", bootstrapServers));
        }
        String servers;
        try {
            servers = settings.bootstrapServers();
        } catch (ConfigException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "no Kafka given: use --bootstrap-servers or set KAFKA_BOOTSTRAP_SERVERS");
        }
        Map<String, Object> probe = new HashMap<>(settings.asMap());
        probe.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        probe.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 5000));
        try (Admin admin = Admin.create(probe)) {
            admin.describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaUnreachable("cannot reach Kafka at " + servers + " within " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnreachable("interrupted while reaching Kafka at " + servers);
        }
        return settings;
    }

    /** Kafka could not be reached: exit code 3. */
    static final class KafkaUnreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        KafkaUnreachable(String message) {
            super(message);
        }
    }

    /** Reads durations in the grammar of configuration: {@code 30s}, {@code 5m}, {@code 48h}. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Grammar.parseDuration(value.trim());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a duration: expected " + Grammar.DURATION_FORMS);
            }
        }
    }
}
