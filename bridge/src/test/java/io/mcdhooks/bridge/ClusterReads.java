package io.mcdhooks.bridge;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** What the end-to-end tests set up in, and read of, the in-memory cluster's MCO objects. */
final class ClusterReads {

    private ClusterReads() {}

    /** Creates the bridge's namespace. */
    static void namespace(KubernetesClient client, String name) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    /** Creates a policy file of deploy/admission/v1, as shipped. */
    static void installAdmissionPolicy(KubernetesClient client, String file) {
        try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "admission", "v1", file))) {
            client.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static GenericKubernetesResource pool(KubernetesClient client, String name) {
        return client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                .withName(name)
                .get();
    }

    static boolean paused(GenericKubernetesResource pool) {
        return Boolean.TRUE.equals(pool.get("spec", "paused"));
    }

    /** The pool's target config, {@code spec.configuration.name}. */
    static String target(GenericKubernetesResource pool) {
        return (String) pool.get("spec", "configuration", "name");
    }

    static List<Node> workers(KubernetesClient client) {
        return client.nodes().list().getItems().stream()
                .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker"))
                .toList();
    }

    static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }

    /** The gatekeeper's answer in an override's status, once it is there. */
    static GateOverrideStatus judged(KubernetesClient client, String namespace, String name, Duration within) {
        return await().atMost(within)
                .until(
                        () -> client.resources(GateOverride.class)
                                .inNamespace(namespace)
                                .withName(name)
                                .get()
                                .getStatus(),
                        status -> status != null && status.getPhase() != null);
    }
}
