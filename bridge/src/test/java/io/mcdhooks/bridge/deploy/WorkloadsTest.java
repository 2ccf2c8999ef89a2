package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.Leadership;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.TopicSettings;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.settings.Setting;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The bridge Deployment and the hook runners set only variables the code reads, with values it accepts. */
class WorkloadsTest {

    static final String BRIDGE = "mcdhooks-bridge";
    private static final Path RUNNER_CONFIG = Path.of(
            "..", "hook-runner", "src", "main", "java", "io", "mcdhooks", "hooks", "runner", "HookRunnerConfig.java");

    @Test
    void theBridgeSetsOnlyVariablesTheBridgeReads() {
        Set<String> known = BridgeConfig.SETTINGS.stream().map(Setting::name).collect(Collectors.toSet());
        assertThat(known).contains("MCDHOOKS_CLUSTER", "MCDHOOKS_NAMESPACE", "MCDHOOKS_LEADER_ELECTION");
        for (String name : env(bridge().getSpec().getTemplate().getSpec()).keySet()) {
            assertThat(known.contains(name) || isKafkaClientSetting(name))
                    .as(name + " is read by the bridge")
                    .isTrue();
        }
    }

    @Test
    void hookRunnersSetOnlyVariablesTheRunnerReads() {
        Set<String> known = runnerVariables();
        assertThat(known).contains("MCDHOOKS_HOOK_NAME", "MCDHOOKS_NODE_NAME", "MCDHOOKS_KMOD_CATALOG");
        podSpecs().forEach((workload, spec) -> {
            if (!workload.equals("Deployment/" + BRIDGE)) {
                for (String name : env(spec).keySet()) {
                    assertThat(known.contains(name) || isKafkaClientSetting(name))
                            .as(workload + ": " + name + " is read by the hook runner")
                            .isTrue();
                }
            }
        });
    }

    @Test
    void theBridgeAcceptsItsDeploymentAndAgreesWithItOnNamespaceTopicsAndLease() {
        Deployment deployment = bridge();
        String namespace = deployment.getMetadata().getNamespace();
        Map<String, String> env = resolved(deployment.getSpec().getTemplate().getSpec(), namespace);
        assertThat(env).containsEntry("MCDHOOKS_STATE_KEY_FILE", "/etc/mcdhooks/state-key/key");
        // The Secret is mounted there in a pod; here a key file of the test's stands in for it.
        env.put("MCDHOOKS_STATE_KEY_FILE", TestEnvironment.stateKeyFile("c").toString());
        BridgeConfig config = BridgeConfig.fromEnvironment(env);
        BridgeConfig defaults = BridgeConfig.fromEnvironment(Map.of(
                "MCDHOOKS_CLUSTER",
                "c",
                "MCDHOOKS_STATE_KEY_FILE",
                TestEnvironment.stateKeyFile("c").toString(),
                "KAFKA_BOOTSTRAP_SERVERS",
                "k:9093"));

        assertThat(config.namespace()).isEqualTo(namespace).isEqualTo(defaults.namespace());
        assertThat(List.of(
                        config.lifecycleTopic(),
                        config.gateRequestsTopic(),
                        config.verdictsTopic(),
                        config.decisionsTopic(),
                        config.deadLetterTopic()))
                .containsExactly(
                        Topics.LIFECYCLE,
                        Topics.GATE_REQUESTS,
                        Topics.VERDICTS,
                        Topics.GATE_DECISIONS,
                        Topics.DEAD_LETTER);
        assertThat(config.gatekeeper()).isTrue();
        assertThat(config.createTopics()).as("topics come from KafkaTopics").isFalse();
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(env(deployment.getSpec().getTemplate().getSpec()).getOrDefault("MCDHOOKS_LEADER_ELECTION", "true"))
                .isEqualTo("true");
        assertThat(deployment.getSpec().getTemplate().getSpec().getServiceAccountName())
                .isEqualTo(BRIDGE);

        Role role = Manifests.one(Role.class, BRIDGE);
        assertThat(role.getMetadata().getNamespace()).isEqualTo(namespace);
        assertThat(role.getRules())
                .filteredOn(r -> r.getResources().contains("leases")
                        && !r.getResourceNames().isEmpty())
                .singleElement()
                .extracting(PolicyRule::getResourceNames)
                .asList()
                .containsExactly(Leadership.LEASE);
    }

    @Test
    void everyHookRunnerHostsARegisteredHookWithItsStagesAndPools() {
        Map<String, UpdateHook> hooks = Manifests.ofType(UpdateHook.class).stream()
                .collect(Collectors.toMap(h -> h.getMetadata().getName(), h -> h));
        assertThat(hookNames()).containsExactlyInAnyOrderElementsOf(hooks.keySet());
        podSpecs().forEach((workload, spec) -> {
            Map<String, String> env = env(spec);
            String name = env.get("MCDHOOKS_HOOK_NAME");
            if (name == null) {
                return;
            }
            UpdateHook hook = hooks.get(name);
            assertThat(hook).as(workload + " hosts an UpdateHook named " + name).isNotNull();
            Set<String> stages = hook.getSpec().getStages().stream()
                    .map(s -> s.name().toLowerCase().replace('_', '-'))
                    .collect(Collectors.toSet());
            assertThat(list(env.get("MCDHOOKS_STAGES"))).as(workload).isEqualTo(stages);
            assertThat(list(env.get("MCDHOOKS_POOL_SELECTOR")))
                    .as(workload)
                    .isEqualTo(new HashSet<>(hook.getSpec().getPools()));
        });
    }

    @Test
    void theNodeLocalRunnerRunsOnHeldNodesAndKnowsItsNode() {
        List<DaemonSet> daemonSets = Manifests.ofType(DaemonSet.class);
        assertThat(daemonSets).isNotEmpty();
        for (DaemonSet ds : daemonSets) {
            PodSpec spec = ds.getSpec().getTemplate().getSpec();
            EnvVar node = container(spec).getEnv().stream()
                    .filter(e -> e.getName().equals("MCDHOOKS_NODE_NAME"))
                    .findFirst()
                    .orElseThrow();
            assertThat(node.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("spec.nodeName");
            assertThat(spec.getTolerations())
                    .extracting(Toleration::getKey, Toleration::getEffect)
                    .contains(
                            Tuple.tuple(LeverPlan.POST_UPDATE_TAINT, "NoSchedule"),
                            Tuple.tuple("node.kubernetes.io/unschedulable", "NoSchedule"));
            if (Boolean.TRUE.equals(spec.getHostNetwork())) {
                assertThat(spec.getDnsPolicy())
                        .as("the Kafka's service name must resolve")
                        .isEqualTo("ClusterFirstWithHostNet");
            }
        }
    }

    @Test
    void theBridgeToleratesItsOwnPostUpdateTaintAndNothingElse() {
        assertThat(bridge().getSpec().getTemplate().getSpec().getTolerations())
                .extracting(Toleration::getKey, Toleration::getOperator, Toleration::getEffect)
                .containsExactly(Tuple.tuple(LeverPlan.POST_UPDATE_TAINT, "Exists", "NoSchedule"));
    }

    @Test
    void podsRunNonRootWithoutServiceLinksAndMountWhatTheirSettingsName() {
        Set<String> configMaps = Manifests.ofType(ConfigMap.class).stream()
                .map(c -> c.getMetadata().getName())
                .collect(Collectors.toSet());
        String caSecret = KafkaResourcesTest.kafka().getMetadata().getName() + "-cluster-ca-cert";
        podSpecs().forEach((workload, spec) -> {
            assertThat(spec.getEnableServiceLinks())
                    .as(workload + ": Service links would add KAFKA_* settings")
                    .isFalse();
            assertThat(spec.getSecurityContext().getRunAsNonRoot()).as(workload).isTrue();
            Container c = container(spec);
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation())
                    .as(workload)
                    .isFalse();
            assertThat(c.getSecurityContext().getCapabilities().getDrop())
                    .as(workload)
                    .containsExactly("ALL");
            assertThat(c.getSecurityContext().getReadOnlyRootFilesystem())
                    .as(workload)
                    .isTrue();
            assertThat(c.getVolumeMounts())
                    .extracting(VolumeMount::getMountPath)
                    .as(workload)
                    .contains("/tmp");
            Map<String, Volume> volumes = spec.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
            for (Volume v : spec.getVolumes()) {
                if (v.getSecret() != null) {
                    // Besides Kafka's: the kmod hook's registry pull secret and the bridge's state key,
                    // no Kubernetes credential.
                    assertThat(v.getSecret().getSecretName())
                            .as(workload)
                            .isIn(
                                    caSecret,
                                    secretOf(spec),
                                    "mcdhooks-kmod-pull-secret",
                                    "mcdhooks-state-key",
                                    "mcdhooks-hook-kmod-check-signing");
                }
                if (v.getConfigMap() != null) {
                    assertThat(configMaps)
                            .as(workload)
                            .contains(v.getConfigMap().getName());
                }
            }
            // Every file a setting names lies in a mounted volume that holds it.
            Map<String, String> env = env(spec);
            for (String setting : List.of(
                    "KAFKA_SSL_TRUSTSTORE_LOCATION",
                    "KAFKA_SSL_KEYSTORE_LOCATION",
                    "MCDHOOKS_KMOD_MODULES_FILE",
                    "MCDHOOKS_KMOD_PULL_SECRETS",
                    "MCDHOOKS_STATE_KEY_FILE")) {
                String file = env.get(setting);
                if (file == null) {
                    continue;
                }
                Path path = Path.of(file);
                VolumeMount mount = c.getVolumeMounts().stream()
                        .filter(m -> Path.of(m.getMountPath()).equals(path.getParent()))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(workload + ": nothing mounted at " + path.getParent()));
                Volume volume = volumes.get(mount.getName());
                String key = path.getFileName().toString();
                if (volume.getSecret() != null) {
                    assertThat(volume.getSecret().getItems())
                            .as(workload + " " + setting)
                            .anyMatch(i -> i.getPath().equals(key));
                } else {
                    ConfigMap map =
                            Manifests.one(ConfigMap.class, volume.getConfigMap().getName());
                    assertThat(map.getData()).as(workload + " " + setting).containsKey(key);
                }
            }
        });
    }

    @Test
    void hooksHaveNoKubernetesCredentials() {
        podSpecs().forEach((workload, spec) -> {
            if (env(spec).containsKey("MCDHOOKS_HOOK_NAME")) {
                assertThat(spec.getAutomountServiceAccountToken()).as(workload).isFalse();
                ServiceAccount account = Manifests.one(ServiceAccount.class, spec.getServiceAccountName());
                assertThat(account.getAutomountServiceAccountToken())
                        .as(workload)
                        .isFalse();
            }
        });
    }

    @Test
    void theOperationsGuideDocumentsEveryVariableTheCodeReads() {
        String guide = Manifests.read(Path.of("..", "docs", "operations.md"));
        Set<String> variables = new TreeSet<>();
        for (Setting<?> setting : BridgeConfig.SETTINGS) {
            variables.add(setting.name());
            variables.addAll(setting.formerNames());
        }
        variables.addAll(runnerVariables());
        variables.add(KafkaSettings.PROPERTIES_FILE_VARIABLE);
        assertThat(variables).allSatisfy(v -> assertThat(guide).as(v).contains("`" + v + "`"));
    }

    // ----- helpers shared with the other deploy tests -----

    static Deployment bridge() {
        return Manifests.one(Deployment.class, BRIDGE);
    }

    /** "Kind/name" → pod spec of every Deployment and DaemonSet in the base. */
    static Map<String, PodSpec> podSpecs() {
        Map<String, PodSpec> specs = new LinkedHashMap<>();
        Manifests.ofType(Deployment.class)
                .forEach(d -> specs.put(
                        "Deployment/" + d.getMetadata().getName(),
                        d.getSpec().getTemplate().getSpec()));
        Manifests.ofType(DaemonSet.class)
                .forEach(d -> specs.put(
                        "DaemonSet/" + d.getMetadata().getName(),
                        d.getSpec().getTemplate().getSpec()));
        return specs;
    }

    static List<Map.Entry<String, Container>> containers() {
        return podSpecs().entrySet().stream()
                .map(e -> (Map.Entry<String, Container>)
                        new AbstractMap.SimpleEntry<>(e.getKey(), container(e.getValue())))
                .toList();
    }

    static Container container(PodSpec spec) {
        assertThat(spec.getContainers()).hasSize(1);
        return spec.getContainers().get(0);
    }

    /** Plain values of the container's variables; a reference shows as "valueFrom". */
    static Map<String, String> env(PodSpec spec) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar v : container(spec).getEnv()) {
            assertThat(env).as("set twice: " + v.getName()).doesNotContainKey(v.getName());
            env.put(v.getName(), v.getValue() != null ? v.getValue() : "valueFrom");
        }
        return env;
    }

    static String value(Container container, String name) {
        return container.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .map(EnvVar::getValue)
                .findFirst()
                .orElse(null);
    }

    /** The variables as the process would see them: field references and secrets resolved. */
    static Map<String, String> resolved(PodSpec spec, String namespace) {
        Map<String, String> env = new HashMap<>();
        for (EnvVar v : container(spec).getEnv()) {
            String value = v.getValue();
            if (v.getValueFrom() != null && v.getValueFrom().getFieldRef() != null) {
                value = switch (v.getValueFrom().getFieldRef().getFieldPath()) {
                    case "metadata.namespace" -> namespace;
                    case "spec.nodeName" -> "worker-0";
                    default ->
                        throw new AssertionError(
                                "unexpected field reference " + v.getValueFrom().getFieldRef());
                };
            } else if (v.getValueFrom() != null) {
                value = "from-a-secret";
            }
            env.put(v.getName(), value);
        }
        return env;
    }

    /** The KafkaUser Secret whose password the workload uses. */
    static String secretOf(PodSpec spec) {
        return container(spec).getEnv().stream()
                .filter(e -> e.getName().equals("KAFKA_SSL_KEYSTORE_PASSWORD"))
                .findFirst()
                .orElseThrow()
                .getValueFrom()
                .getSecretKeyRef()
                .getName();
    }

    static Set<String> hookNames() {
        return podSpecs().values().stream()
                .map(s -> env(s).get("MCDHOOKS_HOOK_NAME"))
                .filter(n -> n != null)
                .collect(Collectors.toSet());
    }

    static boolean isNodeLocal(String hook) {
        return podSpecs().values().stream()
                .map(WorkloadsTest::env)
                .filter(e -> hook.equals(e.get("MCDHOOKS_HOOK_NAME")))
                .anyMatch(e -> e.containsKey("MCDHOOKS_NODE_NAME"));
    }

    /** A KAFKA_* variable that KafkaSettings turns into a setting some Kafka client knows. */
    static boolean isKafkaClientSetting(String name) {
        if (!name.startsWith(KafkaSettings.PREFIX)) {
            return false;
        }
        if (name.equals(KafkaSettings.PROPERTIES_FILE_VARIABLE)) {
            return true;
        }
        Set<String> known = new HashSet<>(ProducerConfig.configNames());
        known.addAll(ConsumerConfig.configNames());
        known.addAll(AdminClientConfig.configNames());
        return known.containsAll(
                KafkaSettings.fromEnvironment(Map.of(name, "x")).asMap().keySet());
    }

    /**
     * The MCDHOOKS_* names the hook runner's configuration reads, from its source: its own literals
     * and the shared topic settings it names (with their former names).
     */
    static Set<String> runnerVariables() {
        Set<String> names = new TreeSet<>(literals(RUNNER_CONFIG));
        Matcher m = Pattern.compile("TopicSettings\\.([A-Z_]+)\\b").matcher(Manifests.read(RUNNER_CONFIG));
        while (m.find()) {
            Object field;
            try {
                field = TopicSettings.class.getField(m.group(1)).get(null);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError("TopicSettings." + m.group(1), e);
            }
            if (field instanceof Setting<?> topic) {
                names.add(topic.name());
                names.addAll(topic.formerNames());
            }
        }
        return names;
    }

    /** Every "MCDHOOKS_…" string literal of the given sources. */
    static Set<String> literals(Path... sources) {
        Set<String> names = new TreeSet<>();
        for (Path source : sources) {
            Matcher m = Pattern.compile("\"(MCDHOOKS_[A-Z_]*[A-Z])\"").matcher(Manifests.read(source));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static Set<String> list(String value) {
        return value == null
                ? Set.of()
                : Arrays.stream(value.split(",")).map(String::trim).collect(Collectors.toSet());
    }
}
