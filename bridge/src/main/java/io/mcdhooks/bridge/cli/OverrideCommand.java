package io.mcdhooks.bridge.cli;

import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideSpec;
import io.mcdhooks.bridge.overrides.GateOverrideStatus;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * Releases or blocks a gate by hand. The only command that needs the Kubernetes API (KUBECONFIG
 * or in-cluster): it creates a {@code GateOverride} in the gatekeeper's namespace, naming the
 * caller as the API server knows them (a SelfSubjectReview; the admission policy checks it), and
 * waits for the gatekeeper to say in its status whether the gate took it.
 */
@Command(
        name = "override",
        description = "Release or block a gate by hand, or stop or resume the pool rollback its failure started,"
                + " with a reason (audited).")
final class OverrideCommand implements Callable<Integer> {

    /** Exit code when the gatekeeper refused the override (its status says why). */
    static final int REFUSED = 5;

    @ParentCommand
    Cli cli;

    @Option(names = "--gate", required = true, description = "The gate id, <cluster>/<stage>/<node or pool>/<config>.")
    String gate;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Action action;

    @Option(names = "--reason", required = true, description = "Why: kept with the decision and the Event.")
    String reason;

    @Option(
            names = "--namespace",
            defaultValue = "mcdhooks",
            description = "The gatekeeper's namespace, where GateOverrides live (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = "--by",
            description = "Your user name as the API server knows it (default: asked from the API server)."
                    + " The admission policy refuses any other name.")
    String by;

    @Option(
            names = "--wait",
            defaultValue = "30s",
            converter = Cli.DurationConverter.class,
            description = "How long to wait for the gatekeeper's answer; 0s: do not wait (default: ${DEFAULT-VALUE}).")
    Duration wait;

    static final class Action {
        @Option(names = "--release", required = true, description = "Let the gate open.")
        boolean release;

        @Option(names = "--block", required = true, description = "Keep it closed, whatever the hooks say.")
        boolean block;

        @Option(
                names = "--stop-rollback",
                required = true,
                description = "Stop the pool rollback this failed post-update gate started: nothing more is written,"
                        + " and the pool is held paused where it is.")
        boolean stopRollback;

        @Option(names = "--resume-rollback", required = true, description = "Carry a stopped rollback on.")
        boolean resumeRollback;

        GateOverrideSpec.Action action() {
            if (release) {
                return GateOverrideSpec.Action.Release;
            }
            if (block) {
                return GateOverrideSpec.Action.Block;
            }
            return stopRollback ? GateOverrideSpec.Action.StopRollback : GateOverrideSpec.Action.ResumeRollback;
        }

        /** What the first line says is asked: "release GATE by WHO". */
        String verb() {
            return switch (action()) {
                case Release -> "release";
                case Block -> "block";
                case StopRollback -> "stop the rollback of";
                case ResumeRollback -> "resume the rollback of";
            };
        }
    }

    /** For tests: the API client to use instead of the kubeconfig's. */
    static KubernetesClient clientForTests;

    @Override
    public Integer call() throws InterruptedException {
        String[] parts = gate.split("/");
        if (parts.length != 4 || reason.isBlank()) {
            throw new ParameterException(
                    cli.spec.commandLine(),
                    "--gate must be <cluster>/<stage>/<node or pool>/<config>, and --reason must say why");
        }
        try {
            Stage.fromWire(parts[1]);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli.spec.commandLine(), "--gate names an unknown stage '" + parts[1] + "'");
        }
        KubernetesClient client = clientForTests != null ? clientForTests : new KubernetesClientBuilder().build();
        try {
            String who = by != null ? by : whoAmI(client);
            GateOverride override = new GateOverride();
            override.getMetadata().setName(name(parts));
            override.getMetadata().setNamespace(namespace);
            override.setSpec(new GateOverrideSpec(gate, action.action(), reason, who));
            client.resources(GateOverride.class)
                    .inNamespace(namespace)
                    .resource(override)
                    .create();
            var out = cli.spec.commandLine().getOut();
            out.printf(
                    "%s %s by %s: %s (GateOverride %s/%s)%n",
                    action.verb(),
                    gate,
                    who,
                    reason,
                    namespace,
                    override.getMetadata().getName());
            GateOverrideStatus status =
                    awaitJudged(client, override.getMetadata().getName(), wait);
            if (status == null) {
                out.printf("not judged yet: see `kubectl get gateoverride -n %s`%n", namespace);
                return 0;
            }
            out.printf("%s: %s%n", status.getPhase(), status.getMessage());
            return status.getPhase() == GateOverrideStatus.Phase.Applied ? 0 : REFUSED;
        } finally {
            if (client != clientForTests) {
                client.close();
            }
        }
    }

    /** Unique, readable, and a valid object name: the gate's stage and object, and a random tail. */
    private static String name(String[] parts) {
        String object = parts[2].toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        String head = (parts[1] + "-" + object);
        head = head.length() > 52 ? head.substring(0, 52) : head;
        return head + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private GateOverrideStatus awaitJudged(KubernetesClient client, String name, Duration wait)
            throws InterruptedException {
        Instant until = Instant.now().plus(wait);
        while (!wait.isZero()) {
            GateOverride seen = client.resources(GateOverride.class)
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            if (seen != null && seen.getStatus() != null && seen.getStatus().getPhase() != null) {
                return seen.getStatus();
            }
            if (Instant.now().isAfter(until)) {
                return null;
            }
            Thread.sleep(250);
        }
        return null;
    }

    /** The caller's user name as the API server knows it (SelfSubjectReview, Kubernetes 1.28 and later). */
    private String whoAmI(KubernetesClient client) {
        try {
            SelfSubjectReview review =
                    client.authentication().v1().selfSubjectReviews().create(new SelfSubjectReview());
            if (review.getStatus() != null
                    && review.getStatus().getUserInfo() != null
                    && review.getStatus().getUserInfo().getUsername() != null) {
                return review.getStatus().getUserInfo().getUsername();
            }
        } catch (KubernetesClientException e) {
            // fall through: an API server without SelfSubjectReview
        }
        throw new ParameterException(
                cli.spec.commandLine(),
                "cannot ask the API server who you are (SelfSubjectReview): pass --by <your user name>");
    }
}
