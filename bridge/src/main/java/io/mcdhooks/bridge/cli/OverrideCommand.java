package io.mcdhooks.bridge.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.mcdhooks.bridge.gate.OverrideRequest;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.Stage;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * Releases or blocks a gate by hand. The only command that needs the Kubernetes API (KUBECONFIG
 * or in-cluster): it writes the {@code mcdhooks.io/override} annotation on the gate's Node or pool,
 * which the gatekeeper applies and publishes as an OVERRIDDEN decision.
 */
@Command(name = "override", description = "Release or block a gate by hand, with a reason (audited).")
final class OverrideCommand implements Callable<Integer> {

    @ParentCommand
    Cli cli;

    @Option(names = "--gate", required = true, description = "The gate id, <cluster>/<stage>/<node or pool>/<config>.")
    String gate;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Action action;

    @Option(names = "--reason", required = true, description = "Why: kept with the decision and the Event.")
    String reason;

    @Option(names = "--by", description = "Who (default: the user of the current kubeconfig context).")
    String by;

    static final class Action {
        @Option(names = "--release", required = true, description = "Let the gate open.")
        boolean release;

        @Option(names = "--block", required = true, description = "Keep it closed, whatever the hooks say.")
        boolean block;
    }

    /** For tests: the API client to use instead of the kubeconfig's. */
    static KubernetesClient clientForTests;

    @Override
    public Integer call() {
        String[] parts = gate.split("/");
        if (parts.length != 4 || reason.isBlank()) {
            throw new ParameterException(
                    cli.spec.commandLine(),
                    "--gate must be <cluster>/<stage>/<node or pool>/<config>, and --reason must say why");
        }
        Stage stage;
        try {
            stage = Stage.fromWire(parts[1]);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli.spec.commandLine(), "--gate names an unknown stage '" + parts[1] + "'");
        }
        KubernetesClient client = clientForTests != null ? clientForTests : new KubernetesClientBuilder().build();
        try {
            String who = by != null ? by : currentUser(client);
            String value = new OverrideRequest(gate, action.release, who, reason).toJson();
            if (stage == Stage.POOL_PRE_UPDATE) {
                client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                        .withName(parts[2])
                        .edit(p -> {
                            p.getMetadata().setAnnotations(with(p.getMetadata().getAnnotations(), value));
                            return p;
                        });
            } else {
                client.nodes().withName(parts[2]).edit(n -> {
                    n.getMetadata().setAnnotations(with(n.getMetadata().getAnnotations(), value));
                    return n;
                });
            }
            cli.spec
                    .commandLine()
                    .getOut()
                    .printf("%s %s by %s: %s%n", action.release ? "release" : "block", gate, who, reason);
            return 0;
        } finally {
            if (client != clientForTests) {
                client.close();
            }
        }
    }

    private static Map<String, String> with(Map<String, String> annotations, String value) {
        Map<String, String> copy = annotations == null ? new HashMap<>() : new HashMap<>(annotations);
        copy.put(OverrideRequest.ANNOTATION, value);
        return copy;
    }

    private static String currentUser(KubernetesClient client) {
        var context = client.getConfiguration().getCurrentContext();
        return context == null
                        || context.getContext() == null
                        || context.getContext().getUser() == null
                ? System.getProperty("user.name")
                : context.getContext().getUser();
    }
}
