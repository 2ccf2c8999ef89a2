package io.mcdhooks.bridge.cli;

import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "tail", description = "Follow lifecycle events, gate requests, verdicts and decisions as they come.")
final class TailCommand implements Callable<Integer> {

    @ParentCommand
    Cli cli;

    @Option(names = "--from-beginning", description = "Start with what the topics hold, not with what comes next.")
    boolean fromBeginning;

    @Option(names = "--max", defaultValue = "0", description = "Stop after this many records (0: never).")
    long max;

    @Option(names = "--for", converter = Cli.DurationConverter.class, description = "Stop after this long.")
    Duration duration;

    @Override
    public Integer call() {
        Map<String, Object> config = new HashMap<>(cli.kafka().asMap());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "mcdhooks-cli-tail-" + UUID.randomUUID());
        CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
        PrintWriter out = cli.spec.commandLine().getOut();
        long seen = 0;
        long stopAt = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<String> topics = List.of(cli.lifecycleTopic, cli.requestsTopic, cli.verdictsTopic, cli.decisionsTopic);
            consumer.subscribe(topics, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // Fix the starting offsets now, so that whoever reads this line knows that
                    // anything written from here on will be shown.
                    partitions.forEach(consumer::position);
                    PrintWriter err = cli.spec.commandLine().getErr();
                    err.println("following " + String.join(", ", topics) + (fromBeginning ? " from the beginning" : "")
                            + " (Ctrl-C to stop)");
                    err.flush();
                }
            });
            while (System.nanoTime() < stopAt && (max == 0 || seen < max)) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String line;
                    try {
                        Message m = cloudEvents
                                .fromRecord(record.key(), record.headers(), record.value())
                                .message();
                        if (cli.cluster != null && !cli.cluster.equals(m.cluster())) {
                            continue;
                        }
                        line = describe(m);
                    } catch (InvalidMessageException e) {
                        line = "unreadable record " + record.topic() + "/" + record.partition() + "@" + record.offset()
                                + ": " + e.getMessage();
                    }
                    out.println(Instant.ofEpochMilli(record.timestamp()) + " " + line);
                    out.flush();
                    if (max > 0 && ++seen >= max) {
                        break;
                    }
                }
            }
        }
        return 0;
    }

    static String describe(Message m) {
        if (m instanceof LifecycleEvent e) {
            return "lifecycle " + e.cluster() + "/" + e.object().name() + " " + e.transition()
                    + (e.toConfig() == null ? "" : " -> " + e.toConfig()) + (e.late() ? " (late)" : "");
        }
        if (m instanceof GateRequest r) {
            return "request   " + r.gateId() + " attempt " + r.attempt();
        }
        if (m instanceof Verdict v) {
            return "verdict   " + v.gateId() + " " + v.hook() + " " + v.outcome() + " " + v.reason();
        }
        GateDecision d = (GateDecision) m;
        return "decision  " + d.gateId() + " " + d.decision() + (d.released() ? " released" : "") + ": "
                + WhyHeld.of(d);
    }
}
