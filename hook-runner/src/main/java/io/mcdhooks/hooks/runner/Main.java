package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Settings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runner process. {@code main} hosts a built-in hook kind named by {@code MCDHOOKS_HOOK_KIND};
 * a Java hook's own {@code main} calls {@link #run(Function)}. Exit codes: 0 after SIGTERM and a
 * graceful stop, {@value #EXIT_START_FAILED} when the runner cannot start (e.g. Kafka unreachable),
 * {@value #EXIT_CONFIG} for a configuration error (one line on stderr names the variable).
 */
public final class Main {

    public static final int EXIT_START_FAILED = 1;
    public static final int EXIT_CONFIG = ConfigException.EXIT_STATUS;

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {}

    public static void main(String[] args) {
        start(BuiltInHooks::create);
    }

    /** Runs {@code hook} until SIGTERM, configured from the environment. */
    public static void run(Function<Vertx, Hook> hook) {
        start((vertx, config) -> hook.apply(vertx));
    }

    private static void start(BiFunction<Vertx, HookRunnerConfig, Hook> hook) {
        Settings settings;
        HookRunnerConfig config;
        VerdictSigner signer;
        try {
            settings = HookRunnerConfig.settings(System.getenv());
            config = HookRunnerConfig.from(settings, KafkaSettings.fromEnvironment(System.getenv()));
            signer = VerdictSigner.of(config);
        } catch (ConfigException e) {
            exitWithConfigError(e);
            return;
        }
        settings.warnings().forEach(warning -> LOG.warn("configuration: {}", warning));
        LOG.info("effective configuration: {}, Kafka client {}", settings, config.kafka());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Vertx vertx = Vertx.builder()
                .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry))
                .build();
        HookRunnerVerticle runner;
        try {
            runner = new HookRunnerVerticle(hook.apply(vertx, config), config).signWith(signer);
        } catch (ConfigException e) {
            vertx.close();
            exitWithConfigError(e);
            return;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                // Undeploying stops the runner: running checks finish or report, offsets are committed.
                                vertx.close()
                                        .toCompletionStage()
                                        .toCompletableFuture()
                                        .get(config.shutdownTimeout().toSeconds() + 15, TimeUnit.SECONDS);
                            } catch (Exception e) {
                                LOG.atWarn().setCause(e).log("runner did not stop cleanly");
                            }
                        },
                        "mcdhooks-shutdown"));
        RunnerEndpoints.bind(registry, config.hookName(), runner.gauges());
        AtomicBoolean ready = new AtomicBoolean();
        OptionalInt port = config.httpPort();
        if (port.isPresent()) {
            RunnerEndpoints.serve(vertx, config.httpHost(), port.getAsInt(), registry, ready::get)
                    .onFailure(e -> LOG.atError()
                            .setCause(e)
                            .log("cannot serve health and metrics on port {}", port.getAsInt()));
        }
        vertx.deployVerticle(runner).onComplete(ar -> {
            ready.set(ar.succeeded());
            if (ar.succeeded()) {
                LOG.atInfo().addKeyValue("hook", config.hookName()).log("hook runner started");
            } else {
                LOG.atError()
                        .addKeyValue("hook", config.hookName())
                        .setCause(ar.cause())
                        .log("hook runner failed to start");
                System.exit(EXIT_START_FAILED);
            }
        });
    }

    private static void exitWithConfigError(ConfigException e) {
        System.err.println("mcdhooks hook runner: configuration error: " + e.getMessage());
        System.exit(EXIT_CONFIG);
    }
}
