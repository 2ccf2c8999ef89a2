package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Queue;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory Kubernetes API server: fabric8's mock server in CRUD mode, with the Machine Config
 * Operator's CustomResourceDefinitions installed (MachineConfigPool, MachineConfig, MachineConfigNode,
 * MachineConfiguration) and the two OpenShift config kinds it reads and writes (Infrastructure,
 * ClusterOperator).
 *
 * <p>It serves plain HTTP on localhost. Clients in this JVM use {@link #client()} or
 * {@link #newClient()}; clients in other processes read the kubeconfig written by
 * {@link #writeKubeconfig(Path)}. The server supports JSON Patch, JSON merge patch, update and the
 * status subresource, but neither strategic-merge patch nor server-side apply, and it has no
 * admission, no garbage collection and no Eviction API (see the module README).
 */
public final class InMemoryCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryCluster.class);

    // Held strongly: java.util.logging forgets the level of a logger nobody references.
    private static final java.util.logging.Logger MOCK_SERVER_LOG =
            java.util.logging.Logger.getLogger(MockWebServer.class.getName());

    private final KubernetesMockServer server;
    private final IndexedCrudDispatcher dispatcher;
    private final KubernetesClient client;
    private final Thread forgetRequests;

    private InMemoryCluster(KubernetesMockServer server, MockWebServer web, IndexedCrudDispatcher dispatcher) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.client = server.createClient();
        // The web server keeps every request it served, body included, for takeRequest(); nothing
        // here asks for them, and a 5,000-node rollout piled up a gigabyte of them until the heap ran
        // out. Taken and dropped as they come.
        this.forgetRequests = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            web.takeRequest();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "in-memory-cluster-forget-requests");
        forgetRequests.setDaemon(true);
        forgetRequests.start();
    }

    /** Starts a server on a free localhost port and installs the MCO CustomResourceDefinitions. */
    public static InMemoryCluster start() {
        // The mock server logs every request at INFO through java.util.logging; at thousands of
        // requests a second that costs more than serving them.
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        var responses = new HashMap<ServerRequest, Queue<ServerResponse>>();
        var dispatcher = new IndexedCrudDispatcher();
        var web = new MockWebServer();
        var server = new KubernetesMockServer(new Context(), web, responses, dispatcher, false);
        server.init();
        var cluster = new InMemoryCluster(server, web, dispatcher);
        try {
            cluster.installCrds();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        LOG.atInfo().addKeyValue("url", cluster.url()).log("In-memory Kubernetes API server started");
        return cluster;
    }

    /** The client shared by everything in this JVM; closed with the cluster. */
    public KubernetesClient client() {
        return client;
    }

    /** A new client of its own (own connections and watches); the caller closes it. */
    public KubernetesClient newClient() {
        return server.createClient();
    }

    /** The API server's base URL, e.g. {@code http://localhost:38123/}. */
    public String url() {
        return client.getConfiguration().getMasterUrl();
    }

    /**
     * Writes a kubeconfig that points at this server, for a client in another process (fabric8:
     * {@code Config.fromKubeconfig(Files.readString(path))}; kubectl works too).
     */
    public Path writeKubeconfig(Path path) {
        String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: in-memory
          cluster:
            server: %s
            insecure-skip-tls-verify: true
        users:
        - name: in-memory
          user:
            token: in-memory
        contexts:
        - name: in-memory
          context:
            cluster: in-memory
            user: in-memory
            namespace: default
        current-context: in-memory
        """.formatted(url());
        try {
            Files.writeString(path, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return path;
    }

    /**
     * Sends every request through {@code interceptor} from now on ({@code null}: none), e.g. to
     * inject conflicts, server errors or slow answers.
     */
    public void interceptRequests(RequestInterceptor interceptor) {
        dispatcher.intercept(interceptor);
    }

    /** The client configuration, for building further clients in this JVM. */
    public Config config() {
        return client.getConfiguration();
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
        forgetRequests.interrupt();
    }

    private void installCrds() {
        for (ResourceDefinitionContext kind : List.of(
                Mco.POOLS,
                Mco.MACHINE_CONFIGS,
                Mco.MACHINE_CONFIG_NODES,
                Mco.MACHINE_CONFIGURATIONS,
                Mco.INFRASTRUCTURES,
                Mco.CLUSTER_OPERATORS)) {
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(crd(kind))
                    .create();
        }
    }

    private static CustomResourceDefinition crd(ResourceDefinitionContext kind) {
        boolean statusSubresource = !kind.getKind().equals("MachineConfig");
        var version = new CustomResourceDefinitionVersionBuilder()
                .withName(kind.getVersion())
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema();
        if (statusSubresource) {
            version.withNewSubresources().withNewStatus().endStatus().endSubresources();
        }
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(kind.getPlural() + "." + kind.getGroup())
                .endMetadata()
                .withNewSpec()
                .withGroup(kind.getGroup())
                .withScope("Cluster")
                .withNewNames()
                .withKind(kind.getKind())
                .withPlural(kind.getPlural())
                .withSingular(kind.getKind().toLowerCase())
                .withListKind(kind.getKind() + "List")
                .endNames()
                .withVersions(version.build())
                .endSpec()
                .build();
    }
}
