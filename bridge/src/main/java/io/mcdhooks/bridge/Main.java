package io.mcdhooks.bridge;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Settings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridge process: configuration from the environment ({@link BridgeConfig}; a wrong value
 * stops it with exit status {@value ConfigException#EXIT_STATUS} and one line naming the variable),
 * one Vert.x, one Kubernetes client.
 * With {@code MCDHOOKS_LEADER_ELECTION=true} (the default) it acts only while it holds the
 * Lease {@value Leadership#LEASE} in {@code MCDHOOKS_NAMESPACE}, and exits when it loses it, to
 * start afresh as a standby. A standby serves {@link StandbyEndpoints}.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {}

    public static void main(String[] args) {
        Settings settings;
        BridgeConfig config;
        try {
            settings = Settings.of(System.getenv(), BridgeConfig.SETTINGS);
            config = BridgeConfig.from(settings, KafkaSettings.fromEnvironment(System.getenv()));
        } catch (ConfigException e) {
            System.err.println("mcdhooks bridge: configuration error: " + e.getMessage());
            System.exit(ConfigException.EXIT_STATUS);
            return;
        }
        settings.warnings().forEach(warning -> LOG.warn("configuration: {}", warning));
        LOG.info("starting bridge; effective configuration: {}, Kafka client {}", settings, config.kafka());
        BridgeMetrics metrics = BridgeMetrics.create();
        // Vert.x reports its own metrics (event loops, HTTP, pools) into the same registry.
        Vertx vertx = Vertx.builder()
                .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(metrics.registry()))
                .build();
        KubernetesClient client = new KubernetesClientBuilder()
                .withHttpClientFactory(new Vertx5HttpClientFactory(vertx))
                .build();
        boolean elect = config.leaderElection();
        // A standby answers the probes too, until it leads and the bridge takes the port.
        Future<HttpServer> standby = elect
                ? StandbyEndpoints.start(vertx, config.httpHost(), config.httpPort(), metrics)
                        .onFailure(e -> LOG.warn("standby endpoints not served: {}", e.getMessage()))
                : Future.succeededFuture();
        Runnable deploy =
                () -> standby.transform(ar -> ar.succeeded() ? ar.result().close() : Future.succeededFuture())
                        .compose(v -> vertx.deployVerticle(new BridgeVerticle(config, client, metrics)))
                        .onFailure(e -> {
                            LOG.error("bridge failed to start", e);
                            System.exit(1);
                        });
        CompletableFuture<?> campaign = null;
        if (elect) {
            String identity = System.getenv().getOrDefault("HOSTNAME", "bridge-" + UUID.randomUUID());
            campaign = Leadership.campaign(
                    client,
                    config.namespace(),
                    identity,
                    Duration.ofSeconds(15),
                    deploy,
                    () -> Runtime.getRuntime().halt(1));
        } else {
            deploy.run();
        }
        CompletableFuture<?> lease = campaign;
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            vertx.close()
                                    .toCompletionStage()
                                    .toCompletableFuture()
                                    .join();
                            if (lease != null) {
                                // Releases the lease, so a standby takes over at once rather than after it expires.
                                lease.cancel(true);
                            }
                            client.close();
                        },
                        "bridge-shutdown"));
    }
}
