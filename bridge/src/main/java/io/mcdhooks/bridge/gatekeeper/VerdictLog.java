package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.gate.VerdictRecord;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** The verdicts topic as the gatekeeper reads it: every partition, from where the read-back stopped. */
interface VerdictLog {

    /**
     * Hands every record from {@code from} on (per partition; the earliest offset where none is
     * given) to {@code handler}, on the gatekeeper's event loop. Completes once it reads.
     */
    Future<Void> follow(Map<TopicPartition, Long> from, Handler<VerdictRecord> handler);

    Future<Void> close();
}
