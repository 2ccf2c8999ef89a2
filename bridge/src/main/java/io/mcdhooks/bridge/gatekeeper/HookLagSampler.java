package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.lag.LagMonitor;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples, every interval, the lag of the registered hooks' consumer groups ({@link LagMonitor},
 * blocking Kafka admin calls, off the event loop) and keeps the latest states for the status
 * page, the hooks' statuses and the metrics. Confined to the gatekeeper's event loop.
 */
final class HookLagSampler {

    private static final Logger LOG = LoggerFactory.getLogger(HookLagSampler.class);

    private final Vertx vertx;
    private final GatekeeperService.Settings settings;
    private final BridgeMetrics metrics;
    private final Clock clock;
    private LagMonitor monitor;
    private long timer = -1;
    private Map<String, LagStatus> latest = Map.of();

    HookLagSampler(Vertx vertx, GatekeeperService.Settings settings, BridgeMetrics metrics, Clock clock) {
        this.vertx = vertx;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Samples {@code hooks} (as registered when each sample is taken) from now on. */
    void start(Supplier<List<String>> hooks) {
        monitor = new LagMonitor(settings.kafka(), settings.requestsTopic(), settings.lagWindow(), clock);
        timer = vertx.setPeriodic(settings.lagInterval().toMillis(), t -> sample(hooks.get()));
    }

    /** Each hook's lag state, as last sampled. */
    Map<String, LagStatus> latest() {
        return latest;
    }

    void stop() {
        vertx.cancelTimer(timer);
        if (monitor != null) {
            LagMonitor closing = monitor;
            vertx.executeBlocking(
                    () -> {
                        closing.close();
                        return null;
                    },
                    false);
        }
    }

    private void sample(List<String> hooks) {
        LagMonitor sampling = monitor;
        vertx.executeBlocking(() -> sampling.sample(hooks), false)
                .onSuccess(statuses -> {
                    latest = Map.copyOf(statuses);
                    metrics.lag(statuses);
                })
                .onFailure(e -> LOG.atDebug().setCause(e).log("lag not sampled"));
    }
}
