package io.mcdhooks.sandbox.mco;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an in-memory cluster with the simulated MCO until the process is stopped, and writes a
 * kubeconfig so that other processes can join.
 *
 * <pre>
 * java -cp … io.mcdhooks.sandbox.mco.SimulatorMain kubeconfig=/tmp/mco.kubeconfig \
 *     masters=3 workers=10 maxUnavailable=2 scale=1000 seed=42
 * </pre>
 *
 * Then roll out a change from anywhere, e.g. {@code kubectl --kubeconfig /tmp/mco.kubeconfig
 * apply -f machineconfig.yaml} or {@link McoSimulator#applyMachineConfig} in-process.
 */
public final class SimulatorMain {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatorMain.class);

    private SimulatorMain() {}

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> options = new HashMap<>(Map.of(
                "kubeconfig",
                "mco-simulator.kubeconfig",
                "masters",
                "3",
                "workers",
                "3",
                "maxUnavailable",
                "1",
                "scale",
                "1000",
                "seed",
                "42"));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 1 || !options.containsKey(arg.substring(0, eq))) {
                throw new IllegalArgumentException(
                        "expected one of " + options.keySet() + " as key=value, got: " + arg);
            }
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        var cluster = InMemoryCluster.start();
        Topology.builder()
                .masters(Integer.parseInt(options.get("masters")))
                .workers(Integer.parseInt(options.get("workers")))
                .maxUnavailable("worker", MaxUnavailable.parse(options.get("maxUnavailable")))
                .build()
                .apply(cluster.client());
        var simulator = McoSimulator.start(
                cluster.client(),
                SimulatorConfig.defaults()
                        .withTimeScale(Double.parseDouble(options.get("scale")))
                        .withSeed(Long.parseLong(options.get("seed"))));
        Path kubeconfig = cluster.writeKubeconfig(Path.of(options.get("kubeconfig")));
        LOG.atInfo()
                .addKeyValue("url", cluster.url())
                .addKeyValue("kubeconfig", kubeconfig)
                .log("In-memory cluster with simulated MCO is running");
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            cluster.close();
            stopped.countDown();
        }));
        stopped.await();
    }
}
