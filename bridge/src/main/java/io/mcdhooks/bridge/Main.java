package io.mcdhooks.bridge;

import java.time.Duration;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;

/**
 * The bridge process: configuration from the environment, one Vert.x, one Kubernetes client.
 * With {@code MCDHOOKS_LEADER_ELECTION=true} (the default) it acts only while it holds the
 * Lease {@value Leadership#LEASE} in {@code MCDHOOKS_NAMESPACE}, and exits when it loses it, to
 * start afresh as a standby.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) {
        BridgeConfig config;
        try {
            config = BridgeConfig.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("mcdhooks bridge: " + e.getMessage());
            System.exit(2);
            return;
        }
        LOG.atInfo().addKeyValue("cluster", config.cluster()).addKeyValue("kafka", config.kafka())
                .log("starting bridge");
        Vertx vertx = Vertx.vertx();
        KubernetesClient client = new KubernetesClientBuilder()
                .withHttpClientFactory(new Vertx5HttpClientFactory(vertx)).build();
        Runnable deploy = () -> vertx.deployVerticle(new BridgeVerticle(config, client)).onFailure(e -> {
            LOG.error("bridge failed to start", e);
            System.exit(1);
        });
        boolean elect = Boolean.parseBoolean(System.getenv().getOrDefault("MCDHOOKS_LEADER_ELECTION", "true"));
        if (elect) {
            String identity = System.getenv().getOrDefault("HOSTNAME", "bridge-" + UUID.randomUUID());
            Leadership.campaign(client, config.namespace(), identity, Duration.ofSeconds(15), deploy,
                    () -> Runtime.getRuntime().halt(1));
        } else {
            deploy.run();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            vertx.close().toCompletionStage().toCompletableFuture().join();
            client.close();
        }, "bridge-shutdown"));
    }
}
