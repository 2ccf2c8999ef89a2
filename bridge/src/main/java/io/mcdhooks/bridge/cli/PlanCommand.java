package io.mcdhooks.bridge.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.mcdhooks.bridge.gate.Enforcement;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.gate.RolloutPlan;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookParser;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.mco.RenderedConfigs;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.rollback.RollbackText;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * What a pending rollout of a pool will do, before it starts ({@link RolloutPlan}): reads the pool,
 * its nodes, the rendered configs, {@code MachineConfiguration/cluster} and the UpdateHooks through
 * the Kubernetes API (KUBECONFIG or in-cluster), read only. Where Kafka is given, also the pool
 * rollback between its configs, if any, and why it started.
 */
@Command(
        name = "plan",
        description = "What a pool's pending rollout will do: each node's disruption, the order the MCC takes"
                + " them in, which hooks gate which stage, and which gates hold or are only advisory.")
final class PlanCommand implements Callable<Integer> {

    private static final String MCO_NAMESPACE = "openshift-machine-config-operator";
    /** How far back the decisions topic is read for the pool's rollback: the decisions' retention. */
    private static final Duration LOOKBACK = Duration.ofDays(7);

    @ParentCommand
    Cli cli;

    @Parameters(index = "0", paramLabel = "POOL", description = "The MachineConfigPool, e.g. worker.")
    String pool;

    /** For tests: the API client to use instead of the kubeconfig's. */
    static KubernetesClient clientForTests;

    @Override
    public Integer call() {
        KubernetesClient client = clientForTests != null ? clientForTests : new KubernetesClientBuilder().build();
        try {
            PrintWriter out = cli.spec.commandLine().getOut();
            GenericKubernetesResource resource = pools(client).withName(pool).get();
            if (resource == null) {
                cli.spec.commandLine().getErr().println("mcdhooks: no MachineConfigPool " + pool);
                return 1;
            }
            PoolView view = Views.pool(resource);
            List<PoolView> allPools =
                    pools(client).list().getItems().stream().map(Views::pool).toList();
            List<NodeView> nodes = new ArrayList<>();
            for (Node n : client.nodes().list().getItems()) {
                NodeView node = Views.node(n, null);
                if (pool.equals(poolOf(node, allPools))) {
                    nodes.add(node);
                }
            }
            RenderedConfigs configs = configs(client, view, nodes);
            List<RegisteredHook> hooks = hooks(client);
            RolloutPlan plan = RolloutPlan.of(view, nodes, hooks, configs::disruption, operatorNode(client));
            print(out, plan);
            if (cli.kafkaGiven()) {
                printRollback(out, view);
            }
            PoolSchedules.Status schedule = PoolSchedules.status(view, Instant.now());
            if (schedule.scheduled()) {
                out.printf(
                        "new nodes: %s%s%n",
                        schedule.description(),
                        Enforcement.pauseHolds(view.name()) ? "" : " (advisory: the master pool is never paused)");
            }
            return 0;
        } finally {
            if (client != clientForTests) {
                client.close();
            }
        }
    }

    static void print(PrintWriter out, RolloutPlan plan) {
        if (!plan.pending()) {
            out.printf("pool %s is at rest on %s: no rollout pending%n", plan.pool(), plan.currentConfig());
            return;
        }
        if (plan.reverting()) {
            out.printf(
                    "pool %s goes back to %s, the config it still reports (a change reverted or rolled back)%n",
                    plan.pool(), plan.targetConfig());
        } else {
            out.printf("pool %s: %s -> %s%n", plan.pool(), plan.currentConfig(), plan.targetConfig());
        }
        out.printf(
                "the MCC takes up to %d node(s) at a time (maxUnavailable), in this order; %d already on the target%n",
                plan.batch(), plan.done().size());
        out.printf(
                "  %-3s %-40s %-12s %-34s %-40s %s%n", "#", "NODE", "ZONE", "DISRUPTION", "PRE-UPDATE", "POST-UPDATE");
        int i = 1;
        for (RolloutPlan.NodeStep step : plan.nodes()) {
            out.printf(
                    "  %-3d %-40s %-12s %-34s %-40s %s%n",
                    i++,
                    step.node() + (step.assigned() ? " (assigned)" : ""),
                    step.zone() == null ? "-" : step.zone(),
                    step.disruption(),
                    step.preUpdate() == null ? "-" : step.preUpdate(),
                    step.postUpdate() == null ? "-" : step.postUpdate());
        }
        out.println("gates");
        if (plan.stages().isEmpty()) {
            out.println("  no hook gates this pool");
        }
        for (RolloutPlan.StageGate stage : plan.stages()) {
            out.printf(
                    "  %-16s %-32s %s%n",
                    stage.stage().wire(),
                    String.join(", ", stage.hooks()),
                    stage.advisory() != null ? "ADVISORY: " + stage.advisory() : "enforced: " + stage.lever());
        }
    }

    /** The pool's latest rollback as the decisions topic has it, and why it started. */
    private void printRollback(PrintWriter out, PoolView view) {
        try {
            KafkaView kafka = KafkaView.read(cli, cli.kafka(), LOOKBACK);
            kafka.rollbacks.entrySet().stream()
                    .filter(e -> e.getKey().endsWith("/" + view.name()))
                    .map(e -> e.getValue())
                    .filter(d -> view.targetConfig() != null
                            && (view.targetConfig().equals(d.rollback().from())
                                    || view.targetConfig().equals(d.rollback().to())))
                    .forEach(d -> out.println(RollbackText.of(d)));
        } catch (Cli.KafkaUnreachable e) {
            out.printf("rollbacks unknown: %s%n", e.getMessage());
        }
    }

    private static NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            pools(KubernetesClient client) {
        return client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"));
    }

    /** The node's pool as the MCO sees it: a custom pool that selects it wins over worker. */
    private static String poolOf(NodeView node, List<PoolView> pools) {
        String match = null;
        for (PoolView p : pools) {
            if (p.selects(node.labels()) && (match == null || "worker".equals(match))) {
                match = p.name();
            }
        }
        return match;
    }

    private static RenderedConfigs configs(KubernetesClient client, PoolView pool, List<NodeView> nodes) {
        RenderedConfigs configs = new RenderedConfigs();
        Set<String> names = new LinkedHashSet<>();
        names.add(pool.targetConfig());
        names.add(pool.currentConfig());
        nodes.forEach(n -> names.add(n.currentConfig()));
        for (String name : names) {
            if (name != null) {
                GenericKubernetesResource mc = client.genericKubernetesResources(
                                McoInformers.context(McoApi.CONFIG_KIND, "v1"))
                        .withName(name)
                        .get();
                if (mc != null) {
                    configs.put(Views.renderedConfig(mc));
                }
            }
        }
        try {
            GenericKubernetesResource policy = client.genericKubernetesResources(McoInformers.MACHINE_CONFIGURATIONS)
                    .withName(McoApi.CLUSTER)
                    .get();
            configs.policy(policy == null ? null : Views.disruptionPolicy(policy));
        } catch (KubernetesClientException e) {
            configs.policy(null); // not served: only OS changes are known
        }
        return configs;
    }

    private static List<RegisteredHook> hooks(KubernetesClient client) {
        List<RegisteredHook> hooks = new ArrayList<>();
        for (UpdateHook hook : client.resources(UpdateHook.class).list().getItems()) {
            try {
                hooks.add(UpdateHookParser.parse(hook));
            } catch (IllegalArgumentException e) {
                // the gatekeeper ignores it too, and reports it in the hook's status
            }
        }
        return hooks;
    }

    /** The node that runs the machine-config-operator pod, which the MCC takes last in the master pool. */
    private static String operatorNode(KubernetesClient client) {
        try {
            return client
                    .pods()
                    .inNamespace(MCO_NAMESPACE)
                    .withLabel("k8s-app", "machine-config-operator")
                    .list()
                    .getItems()
                    .stream()
                    .map(Pod::getSpec)
                    .filter(s -> s != null && s.getNodeName() != null)
                    .map(s -> s.getNodeName())
                    .findFirst()
                    .orElse(null);
        } catch (KubernetesClientException e) {
            return null; // not allowed to list pods there: the order then ignores it
        }
    }
}
