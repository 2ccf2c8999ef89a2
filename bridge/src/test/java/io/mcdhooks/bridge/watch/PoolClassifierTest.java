package io.mcdhooks.bridge.watch;

import static io.mcdhooks.schemas.Transition.NEW_TARGET_CONFIG;
import static io.mcdhooks.schemas.Transition.PAUSED;
import static io.mcdhooks.schemas.Transition.POOL_DEGRADED;
import static io.mcdhooks.schemas.Transition.UNPAUSED;
import static io.mcdhooks.schemas.Transition.UPDATED;
import static io.mcdhooks.schemas.Transition.UPDATING;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.mco.PoolView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolClassifierTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = "rendered-worker-2222";

    @Test
    void followsARolloutFromNewTargetToUpdated() {
        List<PoolView> states = List.of(
                pool(OLD, OLD, false, 1, Map.of("Updated", "True", "Updating", "False")),
                pool(NEW, OLD, true, 2, Map.of("Updated", "False", "Updating", "False")),
                pool(NEW, OLD, false, 3, Map.of("Updated", "False", "Updating", "True")),
                pool(NEW, NEW, false, 3, Map.of("Updated", "True", "Updating", "False")),
                pool(NEW, NEW, true, 4, Map.of("Updated", "True", "Updating", "False")));

        List<Observed> all = walk(states);

        assertThat(all)
                .extracting(Observed::transition)
                .containsExactly(PAUSED, NEW_TARGET_CONFIG, UNPAUSED, UPDATING, UPDATED, PAUSED);
        assertThat(all)
                .filteredOn(o -> o.transition() == PAUSED)
                .extracting(Observed::discriminator)
                .containsExactly("2", "4");
    }

    @Test
    void aPausedPoolAtRestIsReportedPausedOnceWhenFirstSeen() {
        PoolView paused = pool(OLD, OLD, true, 7, Map.of("Updated", "True"));

        List<Observed> first = PoolClassifier.classify(PoolProgress.NONE, paused, true);

        assertThat(first).extracting(Observed::transition).containsExactly(PAUSED);
        assertThat(first).allMatch(Observed::late);
        assertThat(PoolClassifier.classify(replay(first), paused, true)).isEmpty();
    }

    @Test
    void reportsADegradedPoolWithItsMessage() {
        PoolView degraded = new PoolView(
                "worker",
                "uid",
                "1",
                1,
                NEW,
                OLD,
                false,
                "1",
                3,
                0,
                1,
                Map.of(),
                Map.of("Degraded", "True"),
                "Node w1 is reporting: failed to drain",
                Map.of());

        assertThat(PoolClassifier.classify(PoolProgress.NONE, degraded, false))
                .extracting(Observed::transition)
                .containsExactly(NEW_TARGET_CONFIG, POOL_DEGRADED);
    }

    private static List<Observed> walk(List<PoolView> states) {
        List<Observed> all = new ArrayList<>();
        PoolProgress progress = PoolProgress.NONE;
        for (int i = 0; i < states.size(); i++) {
            List<Observed> found = PoolClassifier.classify(progress, states.get(i), i == 0);
            for (Observed o : found) {
                progress = progress.after(o);
            }
            all.addAll(found);
        }
        return all;
    }

    private static PoolProgress replay(List<Observed> observed) {
        PoolProgress p = PoolProgress.NONE;
        for (Observed o : observed) {
            p = p.after(o);
        }
        return p;
    }

    private static PoolView pool(
            String target, String current, boolean paused, long generation, Map<String, String> conditions) {
        return new PoolView(
                "worker",
                "uid-worker",
                "1",
                generation,
                target,
                current,
                paused,
                "1",
                3,
                0,
                0,
                Map.of("node-role.kubernetes.io/worker", ""),
                conditions,
                null,
                Map.of());
    }
}
