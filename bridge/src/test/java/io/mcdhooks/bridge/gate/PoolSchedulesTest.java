package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.node;
import static io.mcdhooks.bridge.gate.Gates.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.gate.PoolSchedules.Change;
import io.mcdhooks.bridge.gate.PoolSchedules.State;
import io.mcdhooks.bridge.mco.PoolView;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolSchedulesTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = "rendered-worker-2222";
    /** Thursday 2026-12-03, 23:30 UTC: inside "Thu 23:00+4h UTC". */
    private static final Instant THURSDAY_NIGHT = Instant.parse("2026-12-03T23:30:00Z");

    private final PoolSchedules schedules = new PoolSchedules();

    @Test
    void aPoolClosesAtItsWindowsEndAndOpensInTheNextSayingWhen() {
        PoolView worker = pool("worker", NEW, OLD, Map.of(UpdateWindows.WINDOWS, "Thu 23:00+4h UTC"));

        // First seen open: nothing to tell
        assertThat(schedules.pool(worker, THURSDAY_NIGHT)).isEmpty();
        assertThat(schedules.open("worker", THURSDAY_NIGHT)).isTrue();

        // At the window's end it closes, once, and says when it opens again
        Instant friday = Instant.parse("2026-12-04T03:00:00Z");
        assertThat(schedules.tick(friday)).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(State.CLOSED);
            assertThat(c.description()).contains("waiting for Thu 2026-12-10 23:00 UTC");
        });
        assertThat(schedules.tick(friday.plusSeconds(60))).isEmpty();
        assertThat(schedules.open("worker", friday)).isFalse();
        assertThat(schedules.statuses(friday).get("worker").state()).isEqualTo(State.CLOSED);

        // And the next Thursday it opens
        Instant nextThursday = Instant.parse("2026-12-10T23:00:00Z");
        assertThat(schedules.tick(nextThursday)).extracting(Change::state).containsExactly(State.OPEN);
    }

    @Test
    void aPoolFirstSeenClosedOrWithATypoIsToldAtOnce() {
        assertThat(schedules.pool(
                        pool("worker", NEW, OLD, Map.of(UpdateWindows.WINDOWS, "Thu 23:00+4h UTC")),
                        Instant.parse("2026-12-04T12:00:00Z")))
                .hasValueSatisfying(c -> assertThat(c.state()).isEqualTo(State.CLOSED));

        assertThat(schedules.pool(pool("infra", NEW, OLD, Map.of(PoolSchedules.PAUSE, "ten minutes")), THURSDAY_NIGHT))
                .hasValueSatisfying(c -> {
                    assertThat(c.state()).isEqualTo(State.INVALID);
                    assertThat(c.description()).contains("mcdhooks.io/update-pause: 'ten minutes' is not a pause");
                });
        assertThat(schedules.open("infra", THURSDAY_NIGHT)).isFalse();
        assertThat(schedules.scheduled()).contains("infra");
    }

    @Test
    void aPoolWithAPauseTakesNoNewNodeWhileABatchRunsNorForThePauseAfterIt() {
        PoolView atRest = pool("worker", OLD, OLD, Map.of(PoolSchedules.PAUSE, "10m"));
        schedules.pool(atRest, THURSDAY_NIGHT);
        schedules.node("worker", node("worker-0", OLD, OLD, "Done"), THURSDAY_NIGHT);
        schedules.node("worker", node("worker-1", OLD, OLD, "Done"), THURSDAY_NIGHT);

        // A new rollout: no batch yet, so the MCO may take the first
        PoolView rolling = pool("worker", NEW, OLD, Map.of(PoolSchedules.PAUSE, "10m"));
        Instant t = THURSDAY_NIGHT.plusSeconds(60);
        schedules.pool(rolling, t);
        assertThat(schedules.open("worker", t)).isTrue();

        // It takes two: no more until both are done, so the MCO cannot fill a slot the first frees
        schedules.node("worker", node("worker-0", OLD, NEW, "Working"), t);
        schedules.node("worker", node("worker-1", OLD, NEW, "Working"), t);
        assertThat(schedules.open("worker", t)).isFalse();
        assertThat(schedules.describe("worker", t)).isEqualTo("10m pause after each batch, 2 nodes updating");
        Instant firstDone = t.plus(Duration.ofMinutes(5));
        schedules.node("worker", node("worker-0", NEW, NEW, "Done"), firstDone);
        assertThat(schedules.open("worker", firstDone.plus(Duration.ofMinutes(30))))
                .isFalse();

        // The batch is done: 10 minutes more, and nobody is paged for a pause
        Instant batchDone = t.plus(Duration.ofMinutes(7));
        schedules.node("worker", node("worker-1", NEW, NEW, "Done"), batchDone);
        assertThat(schedules.open("worker", batchDone)).isFalse();
        assertThat(schedules.statuses(batchDone).get("worker").state()).isEqualTo(State.PAUSING);
        assertThat(schedules.describe("worker", batchDone))
                .isEqualTo("10m pause after each batch, pausing until Thu 2026-12-03 23:48 UTC");
        assertThat(schedules.tick(batchDone)).isEmpty();
        // A node seen done again does not start the pause over
        schedules.node("worker", node("worker-0", NEW, NEW, "Done"), batchDone.plus(Duration.ofMinutes(9)));
        assertThat(schedules.open("worker", batchDone.plus(Duration.ofMinutes(10))))
                .isTrue();
        assertThat(schedules.tick(batchDone.plus(Duration.ofMinutes(10)))).isEmpty();

        // A deleted node ends its batch too
        Instant later = batchDone.plus(Duration.ofMinutes(20));
        schedules.node("worker", node("worker-2", OLD, NEW, "Working"), later);
        assertThat(schedules.open("worker", later)).isFalse();
        schedules.nodeDeleted("worker-2", later);
        assertThat(schedules.open("worker", later.plus(Duration.ofMinutes(10)))).isTrue();

        // Once the pool is at rest there is nothing to pause
        PoolView rested = pool("worker", NEW, NEW, Map.of(PoolSchedules.PAUSE, "10m"));
        schedules.pool(rested, later.plus(Duration.ofMinutes(1)));
        assertThat(schedules.open("worker", later.plus(Duration.ofMinutes(1)))).isTrue();
    }

    @Test
    void aGatekeeperThatFindsAPoolRollingPausesOnceFromThen() {
        PoolView rolling = pool("worker", NEW, OLD, Map.of(PoolSchedules.PAUSE, "10m"));

        schedules.pool(rolling, THURSDAY_NIGHT);

        assertThat(schedules.open("worker", THURSDAY_NIGHT.plus(Duration.ofMinutes(9))))
                .isFalse();
        assertThat(schedules.open("worker", THURSDAY_NIGHT.plus(Duration.ofMinutes(10))))
                .isTrue();
    }

    @Test
    void aPoolWithoutAScheduleIsOpenAndNotPlannedOnTicks() {
        schedules.pool(pool("worker", NEW, OLD, Map.of()), THURSDAY_NIGHT);

        assertThat(schedules.open("worker", THURSDAY_NIGHT)).isTrue();
        assertThat(schedules.open("unknown", THURSDAY_NIGHT)).isTrue();
        assertThat(schedules.scheduled()).doesNotContain("worker");
        assertThat(schedules.describe("worker", THURSDAY_NIGHT)).isEqualTo("no update windows");
    }

    @Test
    void outsideItsScheduleAPoolIsPausedButNeverTheMasterPool() {
        PoolView worker = pool("worker", NEW, OLD, Map.of());
        PoolView master = pool("master", NEW, OLD, Map.of());

        assertThat(PausePlan.withinSchedule(worker, false, false)).isTrue();
        assertThat(PausePlan.withinSchedule(worker, null, false)).isTrue();
        assertThat(PausePlan.withinSchedule(worker, false, true)).isFalse();
        assertThat(PausePlan.withinSchedule(worker, null, true)).isNull();
        assertThat(PausePlan.withinSchedule(master, null, false)).isNull();
    }
}
