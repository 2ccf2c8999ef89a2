package io.mcdhooks.bridge.overrides;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Which gate, what to do with it, who asks and why. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GateOverrideSpec {

    public enum Action {
        Release,
        Block,
        StopRollback,
        ResumeRollback
    }

    @Required
    @Size(min = 1)
    @JsonPropertyDescription(
            "The gate's id, <cluster>/<stage>/<node or pool>/<config>, as `mcdhooks status` shows it. It must name an open gate of this cluster.")
    private String gate;

    @Required
    @JsonPropertyDescription(
            "Release: let the gate open. Block: keep it closed whatever the hooks say. StopRollback: stop the pool rollback the failed post-update gate started (nothing more is written; the pool is held paused where it is). ResumeRollback: carry a stopped rollback on.")
    private Action action;

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Why: kept with the decision on Kafka and in the Kubernetes Event.")
    private String reason;

    @Required
    @Size(min = 1)
    @JsonPropertyDescription(
            "Who asks: must be the requesting user's name as the API server knows it (the admission policy mcdhooks-gate-override checks it).")
    private String requestedBy;

    public GateOverrideSpec() {}

    public GateOverrideSpec(String gate, Action action, String reason, String requestedBy) {
        this.gate = gate;
        this.action = action;
        this.reason = reason;
        this.requestedBy = requestedBy;
    }

    public String getGate() {
        return gate;
    }

    public void setGate(String gate) {
        this.gate = gate;
    }

    public Action getAction() {
        return action;
    }

    public void setAction(Action action) {
        this.action = action;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getRequestedBy() {
        return requestedBy;
    }

    public void setRequestedBy(String requestedBy) {
        this.requestedBy = requestedBy;
    }
}
