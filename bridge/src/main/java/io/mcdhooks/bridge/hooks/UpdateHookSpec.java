package io.mcdhooks.bridge.hooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.ArrayList;
import java.util.List;

/** What a hook gates, and how gates treat it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UpdateHookSpec {

    /** Gate stages, as written in the wire contract. */
    public enum StageName {
        @JsonProperty("pool-pre-update")
        POOL_PRE_UPDATE,
        @JsonProperty("pre-update")
        PRE_UPDATE,
        @JsonProperty("post-update")
        POST_UPDATE
    }

    public enum FailurePolicy {
        Fail,
        Ignore
    }

    public enum Mode {
        Enforcing,
        Advisory
    }

    public enum PostUpdateFailureAction {
        Hold,
        HoldAndPausePool,
        RollbackPool,
        RollbackPoolAdvisory
    }

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("The gates this hook takes part in: pool-pre-update, pre-update, post-update.")
    private List<StageName> stages = new ArrayList<>();

    @JsonPropertyDescription(
            "Names of the MachineConfigPools whose gates this hook takes part in; empty or absent: every pool.")
    private List<String> pools;

    @JsonPropertyDescription("For pre-update and post-update gates: only nodes with these labels. Absent: every node.")
    private LabelSelector nodeSelector;

    @Min(1)
    @Max(86400)
    @Default("600")
    @JsonPropertyDescription(
            "How long a gate waits for this hook's verdict after it opens, in seconds. Keep pre-update gates well under the MCD's one-hour drain limit.")
    private Integer timeoutSeconds = 600;

    @Min(0)
    @Max(86400)
    @Default("0")
    @JsonPropertyDescription(
            "How far PENDING heartbeats may push this hook's deadline beyond timeoutSeconds, in seconds.")
    private Integer maxExtensionSeconds = 0;

    @Default("Fail")
    @JsonPropertyDescription(
            "What a timeout does: Fail keeps the gate closed; Ignore lets it pass, recorded. An explicit FAIL always holds.")
    private FailurePolicy failurePolicy = FailurePolicy.Fail;

    @Default("Enforcing")
    @JsonPropertyDescription(
            "Enforcing verdicts hold gates; Advisory verdicts are recorded and reported and never hold one.")
    private Mode mode = Mode.Enforcing;

    @Default("Hold")
    @JsonPropertyDescription(
            "What a failed post-update gate does: Hold keeps the node tainted and cordoned, so the pool's maxUnavailable halts the rollout; HoldAndPausePool also pauses the pool. RollbackPool holds as HoldAndPausePool and puts the administrator's MachineConfigs back as they were before the failing config, so that the MCO moves the pool back to the config the node came from; where the bridge does not carry rollbacks out (MCDHOOKS_ROLLBACK), or the change is not only the administrator's, it holds and says why. RollbackPoolAdvisory holds as HoldAndPausePool and only reports the rollback it would do.")
    private PostUpdateFailureAction postUpdateFailureAction = PostUpdateFailureAction.Hold;

    @JsonPropertyDescription(
            "Present: every verdict of this hook must carry a detached Ed25519 JWS that one of its keys verifies. The keys are the entries <hook>.<kid> of the Secret mcdhooks-verification-keys in the gatekeeper's namespace; a kid node_<node name> verifies only verdicts about that node. The hook's name must then be a DNS label (no dot).")
    private Signature signature;

    /** That this hook signs: its keys are in the one keys Secret, under its name. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Signature {
        /** The only algorithm verdicts are signed with. */
        public enum Algorithm {
            EdDSA
        }

        @Default("EdDSA")
        @JsonPropertyDescription("The JWS alg every verdict is signed with: EdDSA (Ed25519), the only one.")
        private Algorithm algorithm = Algorithm.EdDSA;

        public Algorithm getAlgorithm() {
            return algorithm;
        }

        public void setAlgorithm(Algorithm algorithm) {
            this.algorithm = algorithm;
        }
    }

    public Signature getSignature() {
        return signature;
    }

    public void setSignature(Signature signature) {
        this.signature = signature;
    }

    public List<StageName> getStages() {
        return stages;
    }

    public void setStages(List<StageName> stages) {
        this.stages = stages;
    }

    public List<String> getPools() {
        return pools;
    }

    public void setPools(List<String> pools) {
        this.pools = pools;
    }

    public LabelSelector getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(LabelSelector nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public Integer getTimeoutSeconds() {
        return timeoutSeconds;
    }

    public void setTimeoutSeconds(Integer timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
    }

    public Integer getMaxExtensionSeconds() {
        return maxExtensionSeconds;
    }

    public void setMaxExtensionSeconds(Integer maxExtensionSeconds) {
        this.maxExtensionSeconds = maxExtensionSeconds;
    }

    public FailurePolicy getFailurePolicy() {
        return failurePolicy;
    }

    public void setFailurePolicy(FailurePolicy failurePolicy) {
        this.failurePolicy = failurePolicy;
    }

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
        this.mode = mode;
    }

    public PostUpdateFailureAction getPostUpdateFailureAction() {
        return postUpdateFailureAction;
    }

    public void setPostUpdateFailureAction(PostUpdateFailureAction postUpdateFailureAction) {
        this.postUpdateFailureAction = postUpdateFailureAction;
    }
}
