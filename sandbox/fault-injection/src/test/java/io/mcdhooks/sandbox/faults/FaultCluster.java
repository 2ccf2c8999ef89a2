package io.mcdhooks.sandbox.faults;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.mco.Mco;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/** What every fault run sets up and reads of its cluster and broker, outside the system under test. */
final class FaultCluster {

    private FaultCluster() {}

    /** The gatekeeper's namespace. */
    static void namespace(KubernetesClient client) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(Children.NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
    }

    /**
     * Creates {@code topics}, three partitions each, with the broker's append time as record
     * timestamps: when a record was on Kafka.
     */
    static void createTopics(String bootstrapServers, List<String> topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(topics.stream()
                            .map(t -> new NewTopic(t, 3, (short) 1)
                                    .configs(Map.of("message.timestamp.type", "LogAppendTime")))
                            .toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topics", e);
        }
    }

    /** {@code dir}, empty: a replayed seed writes to the same one, and would read an earlier run's files as its own. */
    static Path cleanDirectory(Path dir) {
        try {
            if (Files.exists(dir)) {
                try (Stream<Path> old = Files.walk(dir)) {
                    for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static GenericKubernetesResource pool(KubernetesClient client, String name) {
        return client.genericKubernetesResources(Mco.POOLS).withName(name).get();
    }

    /** The pool's target, {@code spec.configuration.name}. */
    static String target(KubernetesClient client, String pool) {
        return (String) pool(client, pool).get("spec", "configuration", "name");
    }

    /** Whether every one of {@code workers} is Done on {@code config}, schedulable and without the gatekeeper's taint. */
    static boolean allOn(KubernetesClient client, Set<String> workers, String config) {
        for (Node n : client.nodes().list().getItems()) {
            if (!workers.contains(n.getMetadata().getName())) {
                continue;
            }
            Map<String, String> a = n.getMetadata().getAnnotations();
            boolean tainted = n.getSpec().getTaints() != null
                    && n.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
            if (!config.equals(a.get(McoApi.CURRENT_CONFIG))
                    || !config.equals(a.get(McoApi.DESIRED_CONFIG))
                    || !"Done".equals(a.get(McoApi.STATE))
                    || Boolean.TRUE.equals(n.getSpec().getUnschedulable())
                    || tainted) {
                return false;
            }
        }
        return true;
    }
}
