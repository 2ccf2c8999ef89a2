package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class OverrideRequestTest {

    @Test
    void readsWhatItWrites() {
        OverrideRequest request = new OverrideRequest(
                "prod-1/post-update/worker-3/rendered-worker-2f", true, "alice", "checked by hand, INC-4711");

        assertThat(OverrideRequest.parse(request.toJson())).isEqualTo(request);
    }

    @Test
    void aBlockIsNotARelease() {
        assertThat(OverrideRequest.parse(
                                "{\"gate\": \"g\", \"action\": \"block\", \"by\": \"bob\", \"reason\": \"wait\"}")
                        .release())
                .isFalse();
    }

    @Test
    void namesEveryMissingField() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OverrideRequest.parse("{\"gate\": \"g\", \"by\": \" \"}"))
                .withMessage("mcdhooks.io/override needs action (a non-empty string), by (a non-empty string), "
                        + "reason (a non-empty string)");
    }

    @Test
    void refusesAnUnknownAction() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OverrideRequest.parse(
                        "{\"gate\": \"g\", \"action\": \"open\", \"by\": \"bob\", \"reason\": \"why not\"}"))
                .withMessageContaining("action must be release or block, not 'open'");
    }

    @Test
    void refusesWhatIsNotAJsonObject() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OverrideRequest.parse("release please"))
                .withMessageContaining("is not JSON");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OverrideRequest.parse("[1]"))
                .withMessageContaining("must be a JSON object");
    }
}
