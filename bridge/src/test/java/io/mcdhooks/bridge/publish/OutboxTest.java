package io.mcdhooks.bridge.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.sign.StateSeal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OutboxTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private final Vertx vertx = Vertx.vertx();
    private final Context context = vertx.getOrCreateContext();

    @AfterEach
    void tearDown() {
        vertx.close().await();
    }

    @Test
    void acknowledgementsOfOneKeyAreHeardInTheOrderPublishedEvenWhenTheNextSendCompletesAtOnce() {
        // A broker that answers the first send later and every other one before its future is even
        // listened to: on a busy machine an acknowledgement can be in before onComplete is called
        Promise<Void> first = Promise.promise();
        List<Integer> sent = new CopyOnWriteArrayList<>();
        Outbox outbox = outbox(record -> {
            sent.add(sent.size());
            return sent.size() == 1 ? first.future() : Future.succeededFuture();
        });
        List<Integer> heard = new CopyOnWriteArrayList<>();
        context.runOnContext(v -> {
            for (int attempt = 1; attempt <= 3; attempt++) {
                int n = attempt;
                outbox.publish(request(attempt)).onSuccess(x -> heard.add(n));
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> sent.size() == 1);

        context.runOnContext(v -> first.complete());

        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 3);
        assertThat(heard).containsExactly(1, 2, 3);
        assertThat(sent).hasSize(3);
    }

    private Outbox outbox(RecordSender sender) {
        return new Outbox(
                vertx,
                sender,
                new CloudEventsKafka(new MessageCodec()),
                Map.of(GateRequest.class, "requests"),
                URI.create("/clusters/test/bridge"),
                new StateSeal(new byte[StateSeal.MIN_KEY_BYTES]),
                topic -> {});
    }

    private static Outgoing request(int attempt) {
        GateRequest request = new GateRequest(
                "test",
                GateId.of("test", Stage.PRE_UPDATE, "worker-0", "rendered-worker-2222"),
                attempt,
                Stage.PRE_UPDATE,
                new GateRequest.PoolFacts("worker", "1", 1),
                new GateRequest.NodeFacts("worker-0", "zone-a", Map.of()),
                "rendered-worker-1111",
                "rendered-worker-2222",
                new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
        return new Outgoing(request, "request-" + attempt, T0);
    }
}
