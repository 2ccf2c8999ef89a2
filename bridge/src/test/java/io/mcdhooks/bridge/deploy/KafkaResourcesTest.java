package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.schemas.kafka.Topics;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.kafka.KafkaAuthorizationSimple;
import io.strimzi.api.kafka.model.kafka.listener.GenericKafkaListener;
import io.strimzi.api.kafka.model.kafka.listener.KafkaListenerAuthenticationTls;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.nodepool.ProcessRoles;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import io.strimzi.api.kafka.model.user.KafkaUserAuthorizationSimple;
import io.strimzi.api.kafka.model.user.KafkaUserTlsClientAuthentication;
import io.strimzi.api.kafka.model.user.acl.AclRule;
import io.strimzi.api.kafka.model.user.acl.AclRuleGroupResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleTopicResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Strimzi's Kafka, topics and users agree with the code's topics, groups and what each component does. */
class KafkaResourcesTest {

    /** The wire contract's topics. */
    static final Set<String> TOPICS =
            Set.of(Topics.LIFECYCLE, Topics.GATE_REQUESTS, Topics.VERDICTS, Topics.GATE_DECISIONS, Topics.DEAD_LETTER);

    static final String HOOK_LABEL = "mcdhooks.io/hook";

    @Test
    void thereIsOneKafkaTopicForEachDefaultTopicOfTheCode() {
        assertThat(topics().stream().map(t -> t.getSpec().getTopicName()).toList())
                .containsExactlyInAnyOrderElementsOf(Stream.concat(TOPICS.stream(), Stream.of(Topics.CONFIG_SNAPSHOTS))
                        .toList());
    }

    @Test
    void theConfigSnapshotsAreCompactedReplicatedAndOnlyTheBridgeReachesThem() {
        KafkaTopic snapshots = topic(Topics.CONFIG_SNAPSHOTS);
        assertThat(snapshots.getSpec().getConfig())
                .containsEntry("cleanup.policy", "compact")
                .containsEntry("min.insync.replicas", 2)
                .doesNotContainKey("retention.ms");
        assertThat(snapshots.getSpec().getReplicas()).isEqualTo(3);
        String bridge = WorkloadsTest.secretOf(
                WorkloadsTest.bridge().getSpec().getTemplate().getSpec());
        for (KafkaUser user : users()) {
            boolean reaches = simple(user).getAcls().stream()
                    .anyMatch(rule -> rule.getResource() instanceof AclRuleTopicResource t
                            && switch (t.getPatternType()) {
                                case LITERAL ->
                                    t.getName().equals(Topics.CONFIG_SNAPSHOTS)
                                            || t.getName().equals("*");
                                case PREFIX -> Topics.CONFIG_SNAPSHOTS.startsWith(t.getName());
                            });
            assertThat(reaches)
                    .as("%s reaches the config snapshots", user.getMetadata().getName())
                    .isEqualTo(user.getMetadata().getName().equals(bridge));
        }
    }

    @Test
    void topicsAreReplicatedDeletedNotCompactedAndKeptLongerThanTheBridgeReadsBack() {
        BridgeConfig defaults = BridgeConfig.fromEnvironment(Map.of(
                "MCDHOOKS_CLUSTER",
                "c",
                "MCDHOOKS_STATE_KEY_FILE",
                TestEnvironment.stateKeyFile("c").toString(),
                "KAFKA_BOOTSTRAP_SERVERS",
                "k:9092"));
        // The longest a gate can wait: the CRD's maximum timeoutSeconds plus maxExtensionSeconds.
        Duration longestGate = Duration.ofSeconds(86400 + 86400);
        for (KafkaTopic topic : topics()) {
            if (!TOPICS.contains(topic.getSpec().getTopicName())) {
                continue;
            }
            Map<String, Object> config = topic.getSpec().getConfig();
            String name = topic.getSpec().getTopicName();
            assertThat(topic.getSpec().getReplicas()).as(name).isEqualTo(3);
            assertThat(config.get("min.insync.replicas")).as(name).isEqualTo(2);
            assertThat(config.get("cleanup.policy")).as(name).isEqualTo("delete");
            Duration retention = Duration.ofMillis(((Number) config.get("retention.ms")).longValue());
            assertThat(retention)
                    .as(name)
                    .isGreaterThan(defaults.recoveryLookback())
                    .isGreaterThan(longestGate);
            assertThat(topic.getMetadata().getLabels())
                    .as(name)
                    .containsEntry("strimzi.io/cluster", kafka().getMetadata().getName());
        }
    }

    @Test
    void requestsAndVerdictsHaveThePartitionsTheBridgeWouldCreate() {
        BridgeConfig defaults = BridgeConfig.fromEnvironment(Map.of(
                "MCDHOOKS_CLUSTER",
                "c",
                "MCDHOOKS_STATE_KEY_FILE",
                TestEnvironment.stateKeyFile("c").toString(),
                "KAFKA_BOOTSTRAP_SERVERS",
                "k:9092"));
        assertThat(topic(Topics.GATE_REQUESTS).getSpec().getPartitions()).isEqualTo(defaults.topicPartitions());
        assertThat(topic(Topics.VERDICTS).getSpec().getPartitions())
                .isEqualTo(topic(Topics.GATE_REQUESTS).getSpec().getPartitions());
    }

    @Test
    void kafkaRunsKraftNodePoolsWithTlsClientsAndSimpleAuthorization() {
        Kafka kafka = kafka();
        assertThat(kafka.getMetadata().getAnnotations())
                .containsEntry("strimzi.io/kraft", "enabled")
                .containsEntry("strimzi.io/node-pools", "enabled");
        List<KafkaNodePool> pools = Manifests.ofType(KafkaNodePool.class);
        assertThat(pools)
                .allSatisfy(p -> assertThat(p.getMetadata().getLabels())
                        .containsEntry("strimzi.io/cluster", kafka.getMetadata().getName()));
        int brokers = pools.stream()
                .filter(p -> p.getSpec().getRoles().contains(ProcessRoles.BROKER))
                .mapToInt(p -> p.getSpec().getReplicas())
                .sum();
        int controllers = pools.stream()
                .filter(p -> p.getSpec().getRoles().contains(ProcessRoles.CONTROLLER))
                .mapToInt(p -> p.getSpec().getReplicas())
                .sum();
        assertThat(controllers)
                .as("a KRaft quorum that survives one loss")
                .isGreaterThanOrEqualTo(3)
                .isOdd();
        assertThat(brokers)
                .as("every replica on its own broker")
                .isGreaterThanOrEqualTo(topics().stream()
                        .mapToInt(t -> t.getSpec().getReplicas())
                        .max()
                        .orElseThrow());
        assertThat(kafka.getSpec().getKafka().getAuthorization()).isInstanceOf(KafkaAuthorizationSimple.class);
        assertThat(kafka.getSpec().getKafka().getConfig()).containsEntry("auto.create.topics.enable", false);
        // The bootstrap address every client is given is this Kafka's TLS listener with client certificates.
        String bootstrap = kafka.getMetadata().getName() + "-kafka-bootstrap."
                + kafka.getMetadata().getNamespace() + ".svc:" + tlsListener().getPort();
        for (var container : WorkloadsTest.containers()) {
            assertThat(WorkloadsTest.value(container.getValue(), "KAFKA_BOOTSTRAP_SERVERS"))
                    .as(container.getKey())
                    .isEqualTo(bootstrap);
            assertThat(WorkloadsTest.value(container.getValue(), "KAFKA_SECURITY_PROTOCOL"))
                    .as(container.getKey())
                    .isEqualTo("SSL");
        }
        assertThat(kafka.getSpec().getKafka().getListeners()).hasSize(1);
    }

    @Test
    void aHookMayReadRequestsInItsOwnGroupsAndWriteVerdictsAndDeadLettersNothingElse() {
        List<KafkaUser> hooks = users().stream().filter(u -> hookOf(u) != null).toList();
        assertThat(hooks)
                .extracting(KafkaResourcesTest::hookOf)
                .containsExactlyInAnyOrderElementsOf(WorkloadsTest.hookNames());
        for (KafkaUser user : hooks) {
            String hook = hookOf(user);
            boolean nodeLocal = WorkloadsTest.isNodeLocal(hook);
            String group = nodeLocal
                    ? "group:prefix:" + Topics.nodeLocalHookGroup(hook, "")
                    : "group:literal:" + Topics.hookGroup(hook);
            assertThat(acls(user))
                    .as(user.getMetadata().getName())
                    .containsExactlyInAnyOrder(
                            "topic:literal:" + Topics.GATE_REQUESTS + ":Read",
                            "topic:literal:" + Topics.GATE_REQUESTS + ":Describe",
                            group + ":Read",
                            group + ":Describe",
                            "topic:literal:" + Topics.VERDICTS + ":Write",
                            "topic:literal:" + Topics.VERDICTS + ":Describe",
                            "topic:literal:" + Topics.DEAD_LETTER + ":Write",
                            "topic:literal:" + Topics.DEAD_LETTER + ":Describe");
            // The prefix must not reach another hook's groups (e.g. "<hook>-2").
            assertThat(Topics.nodeLocalHookGroup(hook, "")).endsWith(".");
        }
    }

    @Test
    void theBridgeReadsAndWritesItsTopicsReadsVerdictsAndOnlyDescribesHookGroups() {
        KafkaUser bridge = user(WorkloadsTest.secretOf(
                WorkloadsTest.bridge().getSpec().getTemplate().getSpec()));
        assertThat(acls(bridge))
                .containsExactlyInAnyOrder(
                        "topic:literal:" + Topics.LIFECYCLE + ":Read",
                        "topic:literal:" + Topics.LIFECYCLE + ":Write",
                        "topic:literal:" + Topics.LIFECYCLE + ":Describe",
                        "topic:literal:" + Topics.GATE_REQUESTS + ":Read",
                        "topic:literal:" + Topics.GATE_REQUESTS + ":Write",
                        "topic:literal:" + Topics.GATE_REQUESTS + ":Describe",
                        "topic:literal:" + Topics.GATE_DECISIONS + ":Read",
                        "topic:literal:" + Topics.GATE_DECISIONS + ":Write",
                        "topic:literal:" + Topics.GATE_DECISIONS + ":Describe",
                        "topic:literal:" + Topics.VERDICTS + ":Read",
                        "topic:literal:" + Topics.VERDICTS + ":Describe",
                        "topic:literal:" + Topics.DEAD_LETTER + ":Write",
                        "topic:literal:" + Topics.DEAD_LETTER + ":Describe",
                        "topic:literal:" + Topics.CONFIG_SNAPSHOTS + ":Read",
                        "topic:literal:" + Topics.CONFIG_SNAPSHOTS + ":Write",
                        "topic:literal:" + Topics.CONFIG_SNAPSHOTS + ":Describe",
                        // Describe only: the lag monitor reads the hooks' committed offsets, it never joins.
                        "group:prefix:" + Topics.hookGroup("") + ":Describe");
    }

    @Test
    void nobodyButHooksMayWriteVerdicts() {
        for (KafkaUser user : users()) {
            if (hookOf(user) != null) {
                continue;
            }
            for (AclRule rule : simple(user).getAcls()) {
                boolean writes = rule.getOperations().stream()
                        .anyMatch(o -> Set.of("Write", "All").contains(o.toValue()));
                if (writes && rule.getResource() instanceof AclRuleTopicResource t) {
                    boolean reaches = switch (t.getPatternType()) {
                        case LITERAL ->
                            t.getName().equals(Topics.VERDICTS) || t.getName().equals("*");
                        case PREFIX -> Topics.VERDICTS.startsWith(t.getName());
                    };
                    assertThat(reaches)
                            .as("%s may write %s", user.getMetadata().getName(), Topics.VERDICTS)
                            .isFalse();
                }
            }
        }
    }

    @Test
    void everyUserAuthenticatesByCertificateAndOnlyAllows() {
        for (KafkaUser user : users()) {
            assertThat(user.getSpec().getAuthentication()).isInstanceOf(KafkaUserTlsClientAuthentication.class);
            assertThat(user.getMetadata().getLabels())
                    .containsEntry("strimzi.io/cluster", kafka().getMetadata().getName());
            assertThat(simple(user).getAcls()).allSatisfy(rule -> {
                assertThat(rule.getType() == null || rule.getType() == AclRuleType.ALLOW)
                        .isTrue();
                assertThat(rule.getHost() == null || "*".equals(rule.getHost())).isTrue();
            });
        }
    }

    @Test
    void everyWorkloadAuthenticatesAsAKafkaUserOfItsOwn() {
        Set<String> users = users().stream().map(u -> u.getMetadata().getName()).collect(Collectors.toSet());
        List<String> secrets = WorkloadsTest.podSpecs().values().stream()
                .map(WorkloadsTest::secretOf)
                .toList();
        assertThat(secrets).doesNotHaveDuplicates();
        assertThat(users).containsAll(secrets);
        for (Deployment d : Manifests.ofType(Deployment.class)) {
            String hook = WorkloadsTest.env(d.getSpec().getTemplate().getSpec()).get("MCDHOOKS_HOOK_NAME");
            if (hook != null) {
                assertThat(hookOf(user(
                                WorkloadsTest.secretOf(d.getSpec().getTemplate().getSpec()))))
                        .isEqualTo(hook);
            }
        }
        for (DaemonSet d : Manifests.ofType(DaemonSet.class)) {
            String hook = WorkloadsTest.env(d.getSpec().getTemplate().getSpec()).get("MCDHOOKS_HOOK_NAME");
            assertThat(hookOf(user(
                            WorkloadsTest.secretOf(d.getSpec().getTemplate().getSpec()))))
                    .isEqualTo(hook);
        }
    }

    static Kafka kafka() {
        List<Kafka> kafkas = Manifests.ofType(Kafka.class);
        assertThat(kafkas).hasSize(1);
        return kafkas.get(0);
    }

    static GenericKafkaListener tlsListener() {
        GenericKafkaListener listener =
                kafka().getSpec().getKafka().getListeners().get(0);
        assertThat(listener.isTls()).isTrue();
        assertThat(listener.getAuth()).isInstanceOf(KafkaListenerAuthenticationTls.class);
        return listener;
    }

    static List<KafkaTopic> topics() {
        return Manifests.ofType(KafkaTopic.class);
    }

    static KafkaTopic topic(String name) {
        return topics().stream()
                .filter(t -> name.equals(t.getSpec().getTopicName()))
                .findFirst()
                .orElseThrow();
    }

    static List<KafkaUser> users() {
        return Manifests.ofType(KafkaUser.class);
    }

    static KafkaUser user(String name) {
        return users().stream()
                .filter(u -> u.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no KafkaUser " + name));
    }

    static String hookOf(KafkaUser user) {
        return user.getMetadata().getLabels() == null
                ? null
                : user.getMetadata().getLabels().get(HOOK_LABEL);
    }

    private static KafkaUserAuthorizationSimple simple(KafkaUser user) {
        assertThat(user.getSpec().getAuthorization()).isInstanceOf(KafkaUserAuthorizationSimple.class);
        return (KafkaUserAuthorizationSimple) user.getSpec().getAuthorization();
    }

    /** Each allowed operation as "type:pattern:name:Operation". */
    static Set<String> acls(KafkaUser user) {
        Set<String> acls = new TreeSet<>();
        for (AclRule rule : simple(user).getAcls()) {
            String resource;
            if (rule.getResource() instanceof AclRuleTopicResource t) {
                resource = "topic:" + t.getPatternType().toValue() + ":" + t.getName();
            } else if (rule.getResource() instanceof AclRuleGroupResource g) {
                resource = "group:" + g.getPatternType().toValue() + ":" + g.getName();
            } else {
                resource = rule.getResource().getType();
            }
            rule.getOperations().forEach(o -> acls.add(resource + ":" + o.toValue()));
        }
        return acls;
    }
}
