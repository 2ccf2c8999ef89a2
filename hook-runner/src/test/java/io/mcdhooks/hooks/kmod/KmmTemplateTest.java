package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KmmTemplateTest {

    @Test
    void setsTheVariablesKmmSetsForItsOwnExampleKernel() {
        // KMM's internal/utils test: 6.0.15-300.fc37.x86_64
        assertThat(KmmTemplate.variables("6.0.15-300.fc37.x86_64", "my-kmod", "ns"))
                .containsEntry("KERNEL_FULL_VERSION", "6.0.15-300.fc37.x86_64")
                .containsEntry("KERNEL_VERSION", "6.0.15-300.fc37.x86_64")
                .containsEntry("KERNEL_XYZ", "6.0.15")
                .containsEntry("KERNEL_X", "6")
                .containsEntry("KERNEL_Y", "0")
                .containsEntry("KERNEL_Z", "15")
                .containsEntry("MOD_NAME", "my-kmod")
                .containsEntry("MOD_NAMESPACE", "ns");
    }

    @Test
    void normalizesTheKernelVersionAsKmmDoesSoARealtimeKernelMakesAValidTag() {
        Map<String, String> vars = KmmTemplate.variables("5.14.0-427.13.1.el9_4.x86_64+rt", "m", "n");

        assertThat(vars.get("KERNEL_FULL_VERSION")).isEqualTo("5.14.0-427.13.1.el9_4.x86_64_rt");
        assertThat(KmmTemplate.expand("registry.example/nvidia:${KERNEL_FULL_VERSION}", vars))
                .isEqualTo("registry.example/nvidia:5.14.0-427.13.1.el9_4.x86_64_rt");
    }

    @Test
    void substitutesLikeEnvsubst() {
        Map<String, String> vars = KmmTemplate.variables("5.14.0-427.el9.x86_64", "nvidia", "gpu");

        assertThat(KmmTemplate.expand("r/$MOD_NAMESPACE/$MOD_NAME:$KERNEL_X.${KERNEL_Y}-cost$$1", vars))
                .isEqualTo("r/gpu/nvidia:5.14-cost$1");
        assertThat(KmmTemplate.expand("${KERNEL_XYZ:-none}|${KERNEL_XYZ-none}|${KERNEL_X:+set}|${KERNEL_X+set}", vars))
                .isEqualTo("5.14.0|5.14.0|set|set");
        assertThat(KmmTemplate.expand("r/x:${KERNEL_X:-${KERNEL_Y}}", vars)).isEqualTo("r/x:5");
        assertThat(KmmTemplate.expand("$ and $_ stay", vars)).isEqualTo("$ and $_ stay");
    }

    @Test
    void refusesVariablesKmmDoesNotSetAndBrokenBraces() {
        assertThatThrownBy(() -> KmmTemplate.validate("r/x:${KERNEL_FULL_VERISON}"))
                .hasMessageContaining("uses $KERNEL_FULL_VERISON, which KMM does not set");
        assertThatThrownBy(() -> KmmTemplate.validate("r/x:${KERNEL_XY}")).hasMessageContaining("$KERNEL_XY,");
        assertThatThrownBy(() -> KmmTemplate.validate("r/x:${KERNEL_X")).hasMessageContaining("never closed");
        assertThatThrownBy(() -> KmmTemplate.validate("r/x:${KERNEL_X?oops}"))
                .hasMessageContaining("'?' is not one of");
        assertThatThrownBy(() -> KmmTemplate.variables("garbage", "m", "n"))
                .hasMessageContaining("at least three components");
    }
}
