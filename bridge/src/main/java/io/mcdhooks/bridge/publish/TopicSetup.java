package io.mcdhooks.bridge.publish;

import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the project's topics where they are missing. On a real cluster they come from
 * {@code KafkaTopic} resources instead; this is for the local run and for tests.
 *
 * <p>Blocking: call it from a worker thread.
 */
public final class TopicSetup {

    private TopicSetup() {}

    /**
     * Creates the missing ones of {@code topics}, each with its {@code configs} if it has any (e.g.
     * {@code message.timestamp.type=LogAppendTime}, {@code cleanup.policy=compact}).
     */
    public static void ensure(
            KafkaSettings settings,
            Collection<String> topics,
            int partitions,
            Map<String, Map<String, String>> configs) {
        try (Admin admin = Admin.create(new HashMap<>(settings.asMap()))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = topics.stream()
                    .distinct()
                    .filter(t -> !existing.contains(t))
                    .map(t -> new NewTopic(t, Optional.of(partitions), Optional.empty())
                            .configs(configs.getOrDefault(t, Map.of())))
                    .toList();
            if (missing.isEmpty()) {
                return;
            }
            for (var result : admin.createTopics(missing).values().entrySet()) {
                try {
                    result.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + result.getKey(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot list topics at " + settings.asMap().get("bootstrap.servers"), e);
        }
    }

    /** Partition count of an existing topic, per the broker. */
    public static Map<String, Integer> partitionCounts(KafkaSettings settings, Collection<String> topics) {
        try (Admin admin = Admin.create(new HashMap<>(settings.asMap()))) {
            Map<String, Integer> counts = new HashMap<>();
            admin.describeTopics(topics)
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .forEach((name, description) ->
                            counts.put(name, description.partitions().size()));
            return counts;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe topics " + topics, e);
        }
    }
}
