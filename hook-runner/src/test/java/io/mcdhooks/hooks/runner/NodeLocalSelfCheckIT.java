package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.examples.NodeSelfCheckHook;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.Partitions;
import io.mcdhooks.schemas.kafka.Topics;
import io.vertx.core.http.HttpServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Node-local runners (a DaemonSet) self-checking their node after an update. */
class NodeLocalSelfCheckIT extends WithKafkaFixture {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int PARTITIONS = 4;

    @Test
    void eachRunnerReadsOnlyItsNodesPartitionAndFailsTheGateWhenItsNodeIsUnhealthy() throws Exception {
        // Given a requests topic of four partitions and three nodes on three different partitions
        fx.createTopic(fx.requestsTopic, PARTITIONS);
        String nodeA = "node-a";
        String nodeB = nodeOnAnotherPartition(nodeA);
        String nodeC = nodeOnAnotherPartition(nodeA, nodeB);
        // And node-a's runner with a health command that finds it unhealthy
        fx.deploy(
                new NodeSelfCheckHook(
                        fx.vertx(),
                        "selfcheck",
                        NodeSelfCheckHook.defaultSelector(),
                        "echo \"kubelet not ready on $MCDHOOKS_NODE\"; exit 1",
                        null,
                        null),
                HookRunnerConfig.fromEnvironment(fx.env(
                        "selfcheck",
                        "MCDHOOKS_HOOK_KIND",
                        "selfcheck",
                        "MCDHOOKS_STAGES",
                        "post-update",
                        "MCDHOOKS_NODE_NAME",
                        nodeA,
                        "MCDHOOKS_SELFCHECK_COMMAND",
                        "unused: the hook is given above")));
        // And node-b's runner probing a healthy endpoint on its node
        HttpServer health = fx.vertx()
                .createHttpServer()
                .requestHandler(req -> req.response().end("ok"))
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        HookRunnerConfig configB = HookRunnerConfig.fromEnvironment(fx.env(
                "selfcheck",
                "MCDHOOKS_HOOK_KIND",
                "selfcheck",
                "MCDHOOKS_STAGES",
                "post-update",
                "MCDHOOKS_NODE_NAME",
                nodeB,
                "MCDHOOKS_SELFCHECK_URL",
                "http://127.0.0.1:" + health.actualPort() + "/healthz"));
        fx.deploy(BuiltInHooks.create(fx.vertx(), configB), configB);

        // When node-a and node-b come back from their update, and node-c's partition gets a malformed record
        GateRequest requestA = Requests.postUpdate(nodeA, Duration.ofMinutes(5));
        GateRequest requestB = Requests.postUpdate(nodeB, Duration.ofMinutes(5));
        fx.publishRaw(new ProducerRecord<>(
                fx.requestsTopic,
                nodeC.getBytes(StandardCharsets.UTF_8),
                "not a request".getBytes(StandardCharsets.UTF_8)));
        fx.publish(requestA);
        fx.publish(requestB);

        // Then node-a's gate FAILs with the command's reason, node-b's PASSes
        Verdict a = fx.awaitFinalVerdict(requestA, WAIT);
        assertThat(a.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(a.reason()).isEqualTo(NodeSelfCheckHook.UNHEALTHY);
        assertThat(a.message()).isEqualTo("health command exited 1: kubelet not ready on " + nodeA);
        Verdict b = fx.awaitFinalVerdict(requestB, WAIT);
        assertThat(b.outcome()).isEqualTo(Outcome.PASS);
        assertThat(b.reason()).isEqualTo(NodeSelfCheckHook.HEALTHY);

        // And each runner committed only its own partition, and nobody ever read node-c's record
        int partitionA = Partitions.forKey(nodeA, PARTITIONS);
        int partitionB = Partitions.forKey(nodeB, PARTITIONS);
        String groupA = Topics.nodeLocalHookGroup("selfcheck", nodeA);
        await().atMost(WAIT).until(() -> fx.committed(groupA, partitionA) == 1);
        for (int p = 0; p < PARTITIONS; p++) {
            if (p != partitionA) {
                assertThat(fx.committed(groupA, p))
                        .as("group of %s on partition %d", nodeA, p)
                        .isEqualTo(-1);
            }
        }
        await().atMost(WAIT).until(() -> fx.committed(Topics.nodeLocalHookGroup("selfcheck", nodeB), partitionB) == 1);
        assertThat(fx.deadLetters()).isEmpty();
        assertThat(fx.verdicts()).extracting(Verdict::node).containsOnly(nodeA, nodeB);
    }

    private static String nodeOnAnotherPartition(String... taken) {
        Set<Integer> used = new HashSet<>();
        for (String node : taken) {
            used.add(Partitions.forKey(node, PARTITIONS));
        }
        for (int i = 0; ; i++) {
            String candidate = "node-" + i;
            if (!used.contains(Partitions.forKey(candidate, PARTITIONS))) {
                return candidate;
            }
        }
    }
}
