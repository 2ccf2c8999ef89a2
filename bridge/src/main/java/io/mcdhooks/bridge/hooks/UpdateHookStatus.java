package io.mcdhooks.bridge.hooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** Where a hook stands: the gates that wait on it and its latest verdicts. Written by the gatekeeper. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UpdateHookStatus {

    @JsonPropertyDescription("Gates that are open and wait on this hook, the first 100 by id.")
    private List<String> openGates = new ArrayList<>();

    @JsonPropertyDescription("This hook's latest verdicts, newest first (at most ten).")
    private List<LastVerdict> lastVerdicts = new ArrayList<>();

    @JsonPropertyDescription("Why the spec cannot be used, when it cannot; the hook then takes part in no gate.")
    private String invalid;

    @JsonPropertyDescription("How the hook keeps up with gate requests, from its consumer groups' committed offsets.")
    private Lag lag;

    @JsonPropertyDescription("For a hook with the post-update stage: how this cluster holds a node until its"
            + " post-update gate is released (Admission, BatchPacing or SingleNodeAdvisory), and what that enforces.")
    private PostUpdateHold postUpdateHold;

    public PostUpdateHold getPostUpdateHold() {
        return postUpdateHold;
    }

    public void setPostUpdateHold(PostUpdateHold postUpdateHold) {
        this.postUpdateHold = postUpdateHold;
    }

    /** How post-update gates hold on this cluster: the mode and what it enforces. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class PostUpdateHold {
        private String mode;
        private String enforced;

        public PostUpdateHold() {}

        public PostUpdateHold(String mode, String enforced) {
            this.mode = mode;
            this.enforced = enforced;
        }

        public String getMode() {
            return mode;
        }

        public void setMode(String mode) {
            this.mode = mode;
        }

        public String getEnforced() {
            return enforced;
        }

        public void setEnforced(String enforced) {
            this.enforced = enforced;
        }
    }

    public Lag getLag() {
        return lag;
    }

    public void setLag(Lag lag) {
        this.lag = lag;
    }

    /** The hook's lag state: OK, WARNING, STALLED, STOPPED or ERROR, its lag, and since when. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Lag {
        private String state;
        private Long lag;
        private String since;

        public Lag() {}

        public Lag(String state, Long lag, String since) {
            this.state = state;
            this.lag = lag;
            this.since = since;
        }

        public String getState() {
            return state;
        }

        public void setState(String state) {
            this.state = state;
        }

        public Long getLag() {
            return lag;
        }

        public void setLag(Long lag) {
            this.lag = lag;
        }

        public String getSince() {
            return since;
        }

        public void setSince(String since) {
            this.since = since;
        }
    }

    public List<String> getOpenGates() {
        return openGates;
    }

    public void setOpenGates(List<String> openGates) {
        this.openGates = openGates;
    }

    public List<LastVerdict> getLastVerdicts() {
        return lastVerdicts;
    }

    public void setLastVerdicts(List<LastVerdict> lastVerdicts) {
        this.lastVerdicts = lastVerdicts;
    }

    public String getInvalid() {
        return invalid;
    }

    public void setInvalid(String invalid) {
        this.invalid = invalid;
    }

    /** One verdict as the status shows it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class LastVerdict {
        private String gateId;
        private Integer attempt;
        private String outcome;
        private String reason;
        private String producedAt;

        public LastVerdict() {}

        public LastVerdict(String gateId, Integer attempt, String outcome, String reason, String producedAt) {
            this.gateId = gateId;
            this.attempt = attempt;
            this.outcome = outcome;
            this.reason = reason;
            this.producedAt = producedAt;
        }

        public String getGateId() {
            return gateId;
        }

        public void setGateId(String gateId) {
            this.gateId = gateId;
        }

        public Integer getAttempt() {
            return attempt;
        }

        public void setAttempt(Integer attempt) {
            this.attempt = attempt;
        }

        public String getOutcome() {
            return outcome;
        }

        public void setOutcome(String outcome) {
            this.outcome = outcome;
        }

        public String getReason() {
            return reason;
        }

        public void setReason(String reason) {
            this.reason = reason;
        }

        public String getProducedAt() {
            return producedAt;
        }

        public void setProducedAt(String producedAt) {
            this.producedAt = producedAt;
        }
    }
}
