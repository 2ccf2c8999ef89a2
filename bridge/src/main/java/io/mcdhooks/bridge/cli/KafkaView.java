package io.mcdhooks.bridge.cli;

import io.mcdhooks.bridge.publish.PublishedLog;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the lifecycle and decision topics say now: the latest of each node, pool, gate and pool rollback. */
final class KafkaView {

    final Map<String, LifecycleEvent> nodes = new TreeMap<>();
    final Map<String, LifecycleEvent> pools = new TreeMap<>();
    /** Latest decision per gate and attempt, in the order gates were first decided. */
    final Map<String, GateDecision> gates = new LinkedHashMap<>();
    /** Latest rollback decision per cluster/pool. */
    final Map<String, GateDecision> rollbacks = new TreeMap<>();

    static KafkaView read(Cli cli, KafkaSettings kafka, Duration lookback) {
        KafkaView view = new KafkaView();
        List<Message> messages = new ArrayList<>();
        PublishedLog.read(
                kafka,
                List.of(cli.lifecycleTopic, cli.decisionsTopic),
                cli.cluster,
                null,
                lookback,
                cli.timeout,
                new CloudEventsKafka(new MessageCodec()),
                Clock.systemUTC(),
                r -> messages.add(r.message()));
        for (Message m : messages) {
            if (m instanceof LifecycleEvent e) {
                String key = e.cluster() + "/" + e.object().name();
                (e.object().kind() == LifecycleEvent.ObjectRef.Kind.Node ? view.nodes : view.pools).put(key, e);
            } else if (m instanceof GateDecision d) {
                view.gates.put(d.gateId() + "#" + d.attempt(), d);
                if (d.rollback() != null) {
                    view.rollbacks.put(d.cluster() + "/" + d.pool(), d);
                }
            }
        }
        return view;
    }

    List<GateDecision> openGates() {
        return gates.values().stream().filter(d -> !d.released()).toList();
    }
}
