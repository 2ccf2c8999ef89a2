package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.DeadLetters;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts one hook: reads GateRequests, runs checks with bounded concurrency, heartbeats while they
 * run, cuts them off at their time limit, retries transient errors, re-checks FAILs that ask for
 * it, publishes verdicts and commits a request's offset only after its final verdict is
 * acknowledged. All state lives on this verticle's event loop; {@link GateCheck} makes the decisions.
 * See DESIGN.md next to this class.
 */
public final class HookRunnerVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(HookRunnerVerticle.class);

    private final Hook hook;
    private final HookRunnerConfig config;
    private final GateSelector selector;
    private final Clock clock;
    private final BiFunction<Vertx, HookRunnerConfig, GateRequestLog> logFactory;
    private final BiFunction<Vertx, HookRunnerConfig, RecordPublisher> publisherFactory;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final URI source;
    private final RunnerGauges gauges = new RunnerGauges();
    private volatile VerdictSigner signer;

    private final Map<String, OpenGate> open = new HashMap<>();
    private final ArrayDeque<OpenGate> ready = new ArrayDeque<>();
    private final OffsetTracker<TopicPartition> offsets = new OffsetTracker<>();
    private final Set<Future<?>> pendingIo = new HashSet<>();
    private GateRequestLog requests;
    private RecordPublisher publisher;
    private WorkerExecutor workers;
    private int running;
    private boolean paused;
    private boolean stopping;
    private Promise<Void> idle;

    /** A runner for {@code hook} reading and writing Kafka as {@code config} says. */
    public HookRunnerVerticle(Hook hook, HookRunnerConfig config) {
        this(hook, config, Clock.systemUTC(), KafkaGateRequestLog::new, KafkaRecordPublisher::new);
    }

    HookRunnerVerticle(
            Hook hook,
            HookRunnerConfig config,
            Clock clock,
            BiFunction<Vertx, HookRunnerConfig, GateRequestLog> logFactory,
            BiFunction<Vertx, HookRunnerConfig, RecordPublisher> publisherFactory) {
        this.hook = Objects.requireNonNull(hook, "hook");
        this.config = Objects.requireNonNull(config, "config");
        this.selector = Objects.requireNonNull(hook.selector(), "hook.selector()");
        this.clock = clock;
        this.logFactory = logFactory;
        this.publisherFactory = publisherFactory;
        this.source = URI.create("/hooks/" + config.hookName());
    }

    /** Signs every verdict from now on (for hooks whose UpdateHook requires signatures). */
    public HookRunnerVerticle signWith(VerdictSigner verdictSigner) {
        this.signer = verdictSigner;
        return this;
    }

    public RunnerGauges gauges() {
        return gauges;
    }

    @Override
    public Future<?> start() {
        LOG.atInfo()
                .addKeyValue("hook", config.hookName())
                .addKeyValue("selector", selector)
                .addKeyValue("config", config)
                .log("hook runner starting");
        // Blocking hook work may legitimately run as long as a check may: warn only beyond that.
        long maxExecute = config.policy().checkTimeout().plusMinutes(1).toMillis();
        workers = vertx.createSharedWorkerExecutor(
                "mcdhooks-hook-" + config.hookName() + "-" + deploymentID(),
                config.concurrency(),
                maxExecute,
                TimeUnit.MILLISECONDS);
        requests = logFactory.apply(vertx, config);
        publisher = publisherFactory.apply(vertx, config);
        return requests.start(this::onRecord, this::onRevoked);
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        requests.pause();
        // Queued gates and gates waiting for a re-check stay uncommitted: the next runner takes them up.
        for (OpenGate gate : List.copyOf(open.values())) {
            if (gate.run == null) {
                cancelTimers(gate);
                open.remove(gate.key);
            }
        }
        ready.clear();
        gauges.open(open.size());
        idle = Promise.promise();
        checkIdle();
        long guard = vertx.setTimer(config.shutdownTimeout().toMillis(), id -> idle.tryFail("shutdown timeout"));
        return idle.future()
                .recover(e -> reportUnfinishedChecks())
                .eventually(() -> {
                    vertx.cancelTimer(guard);
                    open.values().forEach(this::cancelTimers);
                    return Future.join(new ArrayList<>(pendingIo));
                })
                .eventually(requests::close)
                .eventually(publisher::close)
                .eventually(workers::close)
                .onComplete(ar ->
                        LOG.atInfo().addKeyValue("hook", config.hookName()).log("hook runner stopped"));
    }

    private void onRecord(ConsumerRecord<byte[], byte[]> record) {
        if (stopping) {
            return;
        }
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        offsets.track(partition, record.offset());
        Message message;
        try {
            String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            message = cloudEvents
                    .fromRecord(key, record.headers(), record.value())
                    .message();
        } catch (InvalidMessageException e) {
            deadLetter(record, partition, e.reason().name(), e.getMessage());
            return;
        }
        if (!(message instanceof GateRequest request)) {
            deadLetter(record, partition, "UNEXPECTED_KIND", "a " + message.kind() + " on the gate-requests topic");
            return;
        }
        String skipped = skipReason(request, clock.instant());
        String key = request.gateId() + "#" + request.attempt();
        if (skipped == null && open.containsKey(key)) {
            skipped = "already being checked";
        }
        if (skipped != null) {
            LOG.atDebug()
                    .addKeyValue("hook", config.hookName())
                    .addKeyValue("gate", request.gateId())
                    .addKeyValue("attempt", request.attempt())
                    .addKeyValue("why", skipped)
                    .log("request skipped");
            completed(partition, record.offset());
            return;
        }
        OpenGate gate = new OpenGate(
                key, partition, record.offset(), new GateCheck(request, config.hookName(), config.policy()));
        open.put(key, gate);
        gauges.open(open.size());
        if (open.size() >= config.maxOpenGates() && !paused) {
            paused = true;
            gauges.paused();
            requests.pause();
        }
        ready.add(gate);
        drain();
    }

    private String skipReason(GateRequest request, Instant now) {
        if (config.nodeLocal()
                && (request.node() == null
                        || !config.nodeName().equals(request.node().name()))) {
            return "not this runner's node";
        }
        if (!selector.matches(request)) {
            return "outside the hook's selector";
        }
        if (!now.isBefore(request.deadline())) {
            return "deadline passed";
        }
        return null;
    }

    private void drain() {
        while (!stopping && running < config.concurrency() && !ready.isEmpty()) {
            startRun(ready.poll());
        }
    }

    private void startRun(OpenGate gate) {
        Instant now = clock.instant();
        if (gate.check.expired(now)) {
            // It waited past its deadline: the gatekeeper no longer listens, so there is nothing to say.
            close(gate);
            return;
        }
        CheckRun run = new CheckRun(now);
        gate.run = run;
        running++;
        gauges.running(running);
        if (gate.firstStartedAt == null) {
            gate.firstStartedAt = now;
        }
        if (gate.heartbeatTimer < 0) {
            gate.heartbeatTimer =
                    vertx.setPeriodic(config.policy().heartbeatInterval().toMillis(), id -> heartbeat(gate));
        }
        long untilCutoff =
                Math.max(1, Duration.between(now, gate.check.cutoff(now)).toMillis());
        run.timeoutTimer = vertx.setTimer(untilCutoff, id -> onTimeout(gate, run));
        CompletionStage<CheckResult> stage;
        try {
            stage = Objects.requireNonNull(hook.check(gate.check.request(), run), "check(...) returned null");
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        Future.fromCompletionStage(stage, context).onComplete(ar -> onRunEnded(gate, run, ar));
    }

    private void onRunEnded(OpenGate gate, CheckRun run, AsyncResult<CheckResult> result) {
        if (gate.run != run) {
            return; // cut off or revoked already; this late answer is ignored
        }
        endRun(gate);
        Instant now = clock.instant();
        FollowUp followUp = result.succeeded()
                ? gate.check.onResult(result.result(), now)
                : gate.check.onError(describe(result.cause()), now);
        apply(gate, followUp);
        drain();
        checkIdle();
    }

    private void onTimeout(OpenGate gate, CheckRun run) {
        if (gate.run != run) {
            return;
        }
        run.cancel();
        endRun(gate);
        apply(gate, gate.check.onTimeout(run.startedAt, clock.instant()));
        drain();
        checkIdle();
    }

    private void endRun(OpenGate gate) {
        vertx.cancelTimer(gate.run.timeoutTimer);
        gate.run = null;
        running--;
        gauges.running(running);
    }

    private void apply(OpenGate gate, FollowUp followUp) {
        GateRequest request = gate.check.request();
        if (followUp instanceof FollowUp.Finish finish) {
            stopHeartbeat(gate);
            track(publishFinal(gate, finish.result()).compose(v -> close(gate)));
        } else if (followUp instanceof FollowUp.Recheck recheck) {
            stopHeartbeat(gate);
            track(publishFinal(gate, recheck.result()).onSuccess(v -> waitUntil(gate, recheck.at())));
        } else if (followUp instanceof FollowUp.Soak soak) {
            heartbeat(gate);
            waitUntil(gate, soak.at());
        } else if (followUp instanceof FollowUp.Retry retry) {
            LOG.atWarn()
                    .addKeyValue("hook", config.hookName())
                    .addKeyValue("gate", request.gateId())
                    .addKeyValue("attempt", request.attempt())
                    .addKeyValue("retryAt", retry.at())
                    .addKeyValue("error", retry.error())
                    .log("check failed; retrying");
            waitUntil(gate, retry.at());
        }
    }

    private void waitUntil(OpenGate gate, Instant at) {
        if (stopping || !open.containsKey(gate.key)) {
            open.remove(gate.key); // left uncommitted: re-read and re-checked after a restart
            stopHeartbeat(gate);
            return;
        }
        long delay = Math.max(1, Duration.between(clock.instant(), at).toMillis());
        gate.waitTimer = vertx.setTimer(delay, id -> {
            gate.waitTimer = -1;
            ready.add(gate);
            drain();
        });
    }

    private Future<Void> publishFinal(OpenGate gate, CheckResult result) {
        Verdict verdict = gate.check.verdict(result, clock.instant());
        GateRequest request = gate.check.request();
        LOG.atInfo()
                .addKeyValue("hook", config.hookName())
                .addKeyValue("gate", request.gateId())
                .addKeyValue("attempt", request.attempt())
                .addKeyValue("outcome", result.outcome())
                .addKeyValue("reason", result.reason())
                .log("verdict");
        return sendReliably(toRecord(verdict, gate.check.finalVerdictId(result)))
                .onSuccess(v -> gauges.finalVerdictSent());
    }

    private void heartbeat(OpenGate gate) {
        sendHeartbeat(gate, gate.check.heartbeatReason(), gate.check.progress(gate.firstStartedAt, clock.instant()));
    }

    private void sendHeartbeat(OpenGate gate, String reason, String message) {
        Verdict pending = gate.check.heartbeat(reason, message, clock.instant());
        // Heartbeats are distinct events; a lost one is made good by the next.
        track(publisher
                .send(toRecord(pending, UUID.randomUUID().toString()))
                .onFailure(e -> LOG.atWarn()
                        .addKeyValue("hook", config.hookName())
                        .addKeyValue("gate", gate.check.request().gateId())
                        .setCause(e)
                        .log("heartbeat not sent")));
    }

    private void deadLetter(
            ConsumerRecord<byte[], byte[]> record, TopicPartition partition, String reason, String error) {
        LOG.atWarn()
                .addKeyValue("hook", config.hookName())
                .addKeyValue("topic", record.topic())
                .addKeyValue("partition", record.partition())
                .addKeyValue("offset", record.offset())
                .addKeyValue("reason", reason)
                .addKeyValue("error", error)
                .log("request dead-lettered");
        track(sendReliably(DeadLetters.of(record, config.deadLetterTopic(), config.hookName(), reason, error))
                .onSuccess(v -> completed(partition, record.offset())));
    }

    /** Sends until the broker acknowledges; the producer retries on its own first. */
    private Future<Void> sendReliably(ProducerRecord<byte[], byte[]> record) {
        return publisher.send(record).recover(e -> {
            if (stopping) {
                return Future.failedFuture(e);
            }
            LOG.atWarn()
                    .addKeyValue("hook", config.hookName())
                    .addKeyValue("topic", record.topic())
                    .setCause(e)
                    .log("send failed; retrying");
            Promise<Void> later = Promise.promise();
            vertx.setTimer(config.policy().retryBackoff().toMillis(), id -> later.complete());
            return later.future().compose(v -> sendReliably(record));
        });
    }

    private ProducerRecord<byte[], byte[]> toRecord(Verdict verdict, String id) {
        VerdictSigner sign = signer;
        ProducerRecord<String, byte[]> record = cloudEvents.toRecord(
                config.verdictsTopic(),
                verdict,
                id,
                source,
                verdict.producedAt().atOffset(ZoneOffset.UTC),
                sign == null ? Map.of() : Map.of(CloudEventsKafka.JWS_EXTENSION, sign.sign(verdict)));
        return new ProducerRecord<>(
                record.topic(), null, record.key().getBytes(StandardCharsets.UTF_8), record.value(), record.headers());
    }

    /** The gate is done: forget it and commit whatever its completion allows. */
    private Future<Void> close(OpenGate gate) {
        cancelTimers(gate);
        open.remove(gate.key);
        gauges.open(open.size());
        Future<Void> commit = completed(gate.partition, gate.offset);
        if (paused && !stopping && open.size() < config.maxOpenGates()) {
            paused = false;
            requests.resume();
        }
        return commit;
    }

    private Future<Void> completed(TopicPartition partition, long offset) {
        var next = offsets.complete(partition, offset);
        if (next.isEmpty()) {
            return Future.succeededFuture();
        }
        return track(requests.commit(partition, next.getAsLong())
                .onFailure(e -> LOG.atWarn()
                        .addKeyValue("hook", config.hookName())
                        .addKeyValue("topic", partition.topic())
                        .addKeyValue("partition", partition.partition())
                        .addKeyValue("offset", next.getAsLong())
                        .setCause(e)
                        .log("commit failed; the records will be read again")));
    }

    private void onRevoked(Set<TopicPartition> partitions) {
        // Another runner owns these now and re-reads their uncommitted requests; drop ours quietly.
        for (OpenGate gate : List.copyOf(open.values())) {
            if (partitions.contains(gate.partition)) {
                if (gate.run != null) {
                    gate.run.cancel();
                    endRun(gate);
                }
                cancelTimers(gate);
                ready.remove(gate);
                open.remove(gate.key);
            }
        }
        partitions.forEach(offsets::forget);
        gauges.open(open.size());
        if (paused && open.size() < config.maxOpenGates()) {
            paused = false;
            requests.resume();
        }
        drain();
        checkIdle();
    }

    /** At the shutdown timeout: cancel what still runs and tell the gatekeeper it is not forgotten. */
    private Future<Void> reportUnfinishedChecks() {
        for (OpenGate gate : List.copyOf(open.values())) {
            if (gate.run != null) {
                gate.run.cancel();
                endRun(gate);
                sendHeartbeat(
                        gate,
                        GateCheck.STOPPING_REASON,
                        "the runner stopped during the check; it will be checked again after restart");
                open.remove(gate.key);
            }
        }
        return Future.succeededFuture();
    }

    private void checkIdle() {
        if (idle != null && running == 0) {
            idle.tryComplete();
        }
    }

    private void stopHeartbeat(OpenGate gate) {
        if (gate.heartbeatTimer >= 0) {
            vertx.cancelTimer(gate.heartbeatTimer);
            gate.heartbeatTimer = -1;
        }
    }

    private void cancelTimers(OpenGate gate) {
        stopHeartbeat(gate);
        if (gate.waitTimer >= 0) {
            vertx.cancelTimer(gate.waitTimer);
            gate.waitTimer = -1;
        }
    }

    private <T> Future<T> track(Future<T> io) {
        pendingIo.add(io);
        io.onComplete(ar -> pendingIo.remove(io));
        return io;
    }

    private static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null
                && root.getCause() != root
                && (root instanceof CompletionException || root instanceof ExecutionException)) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    /** A gate this runner holds, from its request until its final verdict is acknowledged. */
    private static final class OpenGate {
        private final String key;
        private final TopicPartition partition;
        private final long offset;
        private final GateCheck check;
        private CheckRun run;
        private Instant firstStartedAt;
        private long heartbeatTimer = -1;
        private long waitTimer = -1;

        private OpenGate(String key, TopicPartition partition, long offset, GateCheck check) {
            this.key = key;
            this.partition = partition;
            this.offset = offset;
            this.check = check;
        }
    }

    /** One run of a check, and what the hook sees of the runner during it. */
    private final class CheckRun implements CheckContext {
        private final Instant startedAt;
        private final Cancellation cancellation = new Cancellation();
        private long timeoutTimer = -1;

        private CheckRun(Instant startedAt) {
            this.startedAt = startedAt;
        }

        @Override
        public Vertx vertx() {
            return vertx;
        }

        @Override
        public <T> CompletionStage<T> blocking(Callable<T> work) {
            return workers.executeBlocking(work, false).toCompletionStage();
        }

        @Override
        public void onCancel(Runnable action) {
            cancellation.onCancel(action);
        }

        @Override
        public boolean isCancelled() {
            return cancellation.isCancelled();
        }

        private void cancel() {
            cancellation.cancel(e -> LOG.atWarn()
                    .addKeyValue("hook", config.hookName())
                    .setCause(e)
                    .log("cancel action failed"));
        }
    }
}
