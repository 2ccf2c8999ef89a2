package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.hooks.UpdateHookStatus;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HookStatusesTest {

    @Test
    void aHooksStatusListsTheFirstHundredOpenGatesByIdHoweverManyWaitOnIt() {
        // Given 5,000 open post-update gates waiting on one hook
        List<Gate> gates = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            gates.add(
                    GateMachine.open(request("worker-" + i), List.of(Gates.hook("check", Stage.POST_UPDATE)), Gates.T0)
                            .gate());
        }

        // When its status is written
        UpdateHookStatus status = HookStatuses.of("check", gates, null);

        // Then it names the first 100 by id, not all 5,000
        assertThat(status.getOpenGates())
                .hasSize(HookStatuses.OPEN_GATES)
                .isSorted()
                .startsWith(GateId.of("c1", Stage.POST_UPDATE, "worker-0", Gates.TARGET))
                .doesNotContain(GateId.of("c1", Stage.POST_UPDATE, "worker-4999", Gates.TARGET));
    }

    private static GateRequest request(String node) {
        return new GateRequest(
                "c1",
                GateId.of("c1", Stage.POST_UPDATE, node, Gates.TARGET),
                1,
                Stage.POST_UPDATE,
                new GateRequest.PoolFacts("worker", "10%", 5000),
                new GateRequest.NodeFacts(node, "zone-a", Map.of("node-role.kubernetes.io/worker", "")),
                "rendered-worker-1111",
                Gates.TARGET,
                new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                Gates.T0,
                Gates.T0.plus(Duration.ofMinutes(30)));
    }
}
