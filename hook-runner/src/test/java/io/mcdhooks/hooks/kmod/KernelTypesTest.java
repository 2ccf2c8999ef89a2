package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KernelTypesTest {

    private static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";

    @Test
    void theDefaultKernelTypeBootsTheImagesKernel() {
        KernelTypes types = new KernelTypes(Map.of());

        assertThat(types.refusal("default", "amd64")).isEmpty();
        assertThat(types.refusal("", "amd64")).isEmpty();
        assertThat(types.kernel(null, KERNEL)).isEqualTo(KERNEL);
    }

    @Test
    void aVariantKernelIsRefusedUntilItsSuffixIsConfigured() {
        assertThat(new KernelTypes(Map.of()).refusal("realtime", "amd64")).hasValueSatisfying(r -> {
            assertThat(r.reason()).isEqualTo(RegistryKernelModuleHook.KERNEL_VARIANT_UNKNOWN);
            assertThat(r.message()).contains("kernel-rt").contains("MCDHOOKS_KMOD_KERNEL_SUFFIXES");
        });

        KernelTypes assumed = new KernelTypes(Map.of("realtime", "+rt", "64k-pages", "+64k"));
        assertThat(assumed.refusal("realtime", "amd64")).isEmpty();
        assertThat(assumed.kernel("realtime", KERNEL)).isEqualTo(KERNEL + "+rt");
        assertThat(assumed.kernel("64k-pages", "5.14.0-427.13.1.el9_4.aarch64"))
                .isEqualTo("5.14.0-427.13.1.el9_4.aarch64+64k");
    }

    @Test
    void refuses64kPagesOffArm64AndKernelTypesItDoesNotKnow() {
        KernelTypes types = new KernelTypes(Map.of("64k-pages", "+64k"));

        assertThat(types.refusal("64k-pages", "amd64"))
                .hasValueSatisfying(
                        r -> assertThat(r.reason()).isEqualTo(RegistryKernelModuleHook.KERNEL_TYPE_UNSUPPORTED));
        assertThat(types.refusal("64k-pages", "arm64")).isEmpty();
        assertThat(types.refusal("lowlatency", "amd64"))
                .hasValueSatisfying(r -> assertThat(r.message()).contains("'lowlatency'"));
        assertThatThrownBy(() -> new KernelTypes(Map.of("default", "+x"))).hasMessageContaining("'default'");
    }
}
