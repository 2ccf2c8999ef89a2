package io.mcdhooks.bridge;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;

/** The bridge process: configuration from the environment, one Vert.x, one Kubernetes client. */
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
        vertx.deployVerticle(new BridgeVerticle(config, client)).onFailure(e -> {
            LOG.error("bridge failed to start", e);
            System.exit(1);
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            vertx.close().toCompletionStage().toCompletableFuture().join();
            client.close();
        }, "bridge-shutdown"));
    }
}
