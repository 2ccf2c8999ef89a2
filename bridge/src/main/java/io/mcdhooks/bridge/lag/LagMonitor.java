package io.mcdhooks.bridge.lag;

import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Samples each hook's consumer groups on the gate-requests topic (its group, and the groups of
 * its node-local runners) and keeps a sliding window of samples per hook for
 * {@link LagEvaluator}. Everything comes from Kafka's own records: committed offsets, log-end
 * offsets, group members. Hooks need not report anything.
 *
 * <p>Blocking: call {@link #sample} from a worker thread.
 */
public final class LagMonitor implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 10;

    private final Admin admin;
    private final String topic;
    private final int windowSize;
    private final Clock clock;
    private final Map<String, Deque<LagSample>> windows = new HashMap<>();

    public LagMonitor(KafkaSettings settings, String requestsTopic, int windowSize, Clock clock) {
        this.admin = Admin.create(new HashMap<>(settings.asMap()));
        this.topic = requestsTopic;
        this.windowSize = windowSize;
        this.clock = clock;
    }

    /** Takes one sample of every hook and returns each hook's state over its window. */
    public synchronized Map<String, LagStatus> sample(Collection<String> hooks) {
        Instant now = clock.instant();
        Map<String, LagStatus> result = new HashMap<>();
        Map<String, LagSample> samples = new HashMap<>();
        try {
            samples.putAll(read(hooks, now));
        } catch (Exception e) {
            String error = "cannot read offsets: " + rootMessage(e);
            hooks.forEach(h -> samples.put(h, LagSample.failed(now, error)));
        }
        windows.keySet().retainAll(Set.copyOf(hooks));
        for (String hook : hooks) {
            Deque<LagSample> window = windows.computeIfAbsent(hook, h -> new ArrayDeque<>());
            window.addLast(samples.get(hook));
            while (window.size() > windowSize) {
                window.removeFirst();
            }
            result.put(hook, LagEvaluator.evaluate(hook, List.copyOf(window)));
        }
        return result;
    }

    private Map<String, LagSample> read(Collection<String> hooks, Instant now)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<String> groups = admin.listConsumerGroups().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                .map(ConsumerGroupListing::groupId)
                .toList();
        int partitions = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get(topic)
                .partitions()
                .size();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends =
                admin.listOffsets(latest).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).entrySet().stream()
                        .collect(Collectors.toMap(
                                Map.Entry::getKey,
                                (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e) ->
                                        e.getValue().offset()));
        long totalEnd = ends.values().stream().mapToLong(Long::longValue).sum();

        Map<String, List<String>> groupsByHook = new HashMap<>();
        for (String hook : hooks) {
            String group = Topics.hookGroup(hook);
            groupsByHook.put(
                    hook,
                    groups.stream()
                            .filter(g -> g.equals(group) || g.startsWith(group + "."))
                            .toList());
        }
        List<String> wanted =
                groupsByHook.values().stream().flatMap(List::stream).toList();
        Map<String, ConsumerGroupDescription> descriptions = wanted.isEmpty()
                ? Map.of()
                : admin.describeConsumerGroups(wanted).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        Map<String, LagSample> samples = new HashMap<>();
        for (String hook : hooks) {
            List<String> hookGroups = groupsByHook.get(hook);
            if (hookGroups.isEmpty()) {
                // Never consumed at all: every request so far waits on it.
                samples.put(hook, new LagSample(now, -1, totalEnd, false, null));
                continue;
            }
            long committed = 0;
            long end = 0;
            boolean members = false;
            for (String group : hookGroups) {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                boolean nodeLocal = !group.equals(Topics.hookGroup(hook));
                for (Map.Entry<TopicPartition, Long> partition : ends.entrySet()) {
                    OffsetAndMetadata offset = offsets.get(partition.getKey());
                    if (offset == null && nodeLocal) {
                        continue; // a node-local runner reads one partition only
                    }
                    committed += offset == null ? 0 : offset.offset();
                    end += partition.getValue();
                }
                ConsumerGroupDescription description = descriptions.get(group);
                members |= description != null && !description.members().isEmpty();
            }
            samples.put(hook, new LagSample(now, committed, end, members, null));
        }
        return samples;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
