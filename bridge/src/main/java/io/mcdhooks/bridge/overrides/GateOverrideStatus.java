package io.mcdhooks.bridge.overrides;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What the gatekeeper made of an override, written once. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GateOverrideStatus {

    public enum Phase {
        Applied,
        Refused
    }

    @JsonPropertyDescription("Applied: the gate took it (its decision is on Kafka). Refused: see message.")
    private Phase phase;

    @JsonPropertyDescription("What the gatekeeper did, or why it refused.")
    private String message;

    @JsonPropertyDescription("When the gatekeeper judged it (RFC 3339).")
    private String judgedAt;

    public GateOverrideStatus() {}

    public GateOverrideStatus(Phase phase, String message, String judgedAt) {
        this.phase = phase;
        this.message = message;
        this.judgedAt = judgedAt;
    }

    public Phase getPhase() {
        return phase;
    }

    public void setPhase(Phase phase) {
        this.phase = phase;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public String getJudgedAt() {
        return judgedAt;
    }

    public void setJudgedAt(String judgedAt) {
        this.judgedAt = judgedAt;
    }
}
