package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
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
 * ClusterOperator), authentication of every request and the ValidatingAdmissionPolicies stored in it
 * enforced.
 *
 * <p>It serves plain HTTP on localhost. Clients in this JVM use {@link #client()} or
 * {@link #newClient()} (both {@code system:admin}) or {@link #clientAs(Identity)}; clients in other
 * processes read a kubeconfig written by {@link #writeKubeconfig(Path, Identity)} or get a bearer
 * token from {@link #tokenFor(Identity)}. A request without credentials is {@code system:anonymous}
 * and refused. The server supports JSON Patch, JSON merge patch, update and the status subresource,
 * but neither strategic-merge patch nor server-side apply, and it has no RBAC, no garbage collection
 * and no Eviction API (see the module README).
 */
public final class InMemoryCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryCluster.class);

    // Held strongly: java.util.logging forgets the level of a logger nobody references.
    private static final java.util.logging.Logger MOCK_SERVER_LOG =
            java.util.logging.Logger.getLogger(MockWebServer.class.getName());

    private final Server server;
    private final IndexedCrudDispatcher dispatcher;
    private final Authenticator authenticator;
    private final ValidatingAdmission admission;
    private final KubernetesClient client;
    private final Thread forgetRequests;

    /** fabric8's mock server, whose clients authenticate as {@code system:admin} with a token of ours. */
    private static final class Server extends KubernetesMockServer {
        private final String adminToken;

        Server(MockWebServer web, IndexedCrudDispatcher dispatcher, String adminToken) {
            super(new Context(), web, new HashMap<ServerRequest, Queue<ServerResponse>>(), dispatcher, false);
            this.adminToken = adminToken;
        }

        @Override
        protected Config initConfig() {
            Config config = super.initConfig();
            config.setOauthToken(adminToken);
            return config;
        }

        /** The admin's configuration, impersonating {@code identity} as {@code kubectl --as} does. */
        Config configAs(Identity identity) {
            Config config = initConfig();
            RequestConfig impersonating = identity.requestConfig(config.getRequestConfig());
            config.setImpersonateUsername(impersonating.getImpersonateUsername());
            config.setImpersonateGroups(impersonating.getImpersonateGroups());
            config.setImpersonateExtras(impersonating.getImpersonateExtras());
            return config;
        }
    }

    private InMemoryCluster(
            Server server,
            MockWebServer web,
            IndexedCrudDispatcher dispatcher,
            Authenticator authenticator,
            ValidatingAdmission admission) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.authenticator = authenticator;
        this.admission = admission;
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
        var authenticator = new Authenticator();
        var admission = new ValidatingAdmission();
        var dispatcher = new IndexedCrudDispatcher(authenticator, admission);
        var web = new MockWebServer();
        var server = new Server(web, dispatcher, authenticator.tokenFor(Identity.admin()));
        server.init();
        var cluster = new InMemoryCluster(server, web, dispatcher, authenticator, admission);
        try {
            cluster.installCrds();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        LOG.atInfo().addKeyValue("url", cluster.url()).log("In-memory Kubernetes API server started");
        return cluster;
    }

    /** The client shared by everything in this JVM, as {@code system:admin}; closed with the cluster. */
    public KubernetesClient client() {
        return client;
    }

    /** A new client of its own (own connections and watches) as {@code system:admin}; the caller closes it. */
    public KubernetesClient newClient() {
        return server.createClient();
    }

    /**
     * A new client of its own that sends every request as {@code identity} (the admin's token plus
     * {@code Impersonate-*} headers, as {@code kubectl --as} does); the caller closes it. For many
     * identities over one connection pool see {@link Identity#client(KubernetesClient)}.
     */
    public KubernetesClient clientAs(Identity identity) {
        Config config = server.configAs(identity);
        return server.createClient(builder -> builder.withConfig(config));
    }

    /** {@link #clientAs(Identity)} for a user name and groups ({@code system:authenticated} is added). */
    public KubernetesClient clientAs(String username, String... groups) {
        return clientAs(Identity.user(username, groups));
    }

    /**
     * A bearer token that authenticates as {@code identity}, as a service-account token does on a real
     * cluster: for a process given only a token (fabric8 {@code -Dkubernetes.auth.token=}).
     */
    public String tokenFor(Identity identity) {
        return authenticator.tokenFor(identity);
    }

    /**
     * Who the server takes {@code request} to come from, e.g. in a {@link RequestInterceptor};
     * {@code system:anonymous} for a request it refuses.
     */
    public Identity identityOf(RecordedRequest request) {
        try {
            return authenticator.authenticate(request);
        } catch (ApiError e) {
            return Identity.anonymous();
        }
    }

    /** The Warn and Audit outcomes of admission policies so far, oldest first. */
    public List<AdmissionRecord> admissionRecords() {
        return admission.records();
    }

    /** The API server's base URL, e.g. {@code http://localhost:38123/}. */
    public String url() {
        return client.getConfiguration().getMasterUrl();
    }

    /** {@link #writeKubeconfig(Path, Identity)} for {@code system:admin}. */
    public Path writeKubeconfig(Path path) {
        return writeKubeconfig(path, Identity.admin());
    }

    /**
     * Writes a kubeconfig that points at this server and authenticates as {@code identity}, for a
     * client in another process (fabric8: {@code Config.fromKubeconfig(Files.readString(path))};
     * kubectl works too). The user entry holds a bearer token of {@code identity}, as a
     * service-account kubeconfig does: fabric8 ignores a user entry's {@code as}/{@code as-groups}.
     */
    public Path writeKubeconfig(Path path, Identity identity) {
        String user = identity.username().replace("\"", "");
        String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: in-memory
          cluster:
            server: %s
            insecure-skip-tls-verify: true
        users:
        - name: "%s"
          user:
            token: %s
        contexts:
        - name: in-memory
          context:
            cluster: in-memory
            user: "%s"
            namespace: default
        current-context: in-memory
        """.formatted(url(), user, tokenFor(identity), user);
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
