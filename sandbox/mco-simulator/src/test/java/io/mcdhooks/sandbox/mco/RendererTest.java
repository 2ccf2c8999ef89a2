package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RendererTest {

    private static final Map<String, Object> BASE = Map.of(
            "osImageURL", "quay.io/ocp@sha256:aaa",
            "kernelType", "default",
            "extensions", List.of(),
            "kernelArguments", List.of("psi=1"),
            "config",
                    Map.of(
                            "ignition",
                            Map.of("version", "3.4.0"),
                            "storage",
                            Map.of(
                                    "files",
                                    List.of(Map.of("path", "/etc/a", "contents", Map.of("source", "data:,1"))))));

    @Test
    void namesTheRenderedConfigAfterPoolAndMd5OfTheMergedSpec() {
        var rendered = Renderer.render("worker", Map.of("00-worker", BASE));

        assertThat(rendered.name()).matches("rendered-worker-[0-9a-f]{32}");
        assertThat(Renderer.render("worker", Map.of("00-worker", BASE)).name()).isEqualTo(rendered.name());
        assertThat(Renderer.render("infra", Map.of("00-worker", BASE)).name())
                .startsWith("rendered-infra-")
                .endsWith(rendered.name().substring(16));
    }

    @Test
    void mergesInNameOrder() {
        var rendered = Renderer.render(
                "worker",
                Map.of(
                        "00-worker", BASE,
                        "99-worker-rt", Map.of("kernelType", "realtime", "kernelArguments", List.of("nosmt")),
                        "50-worker-ext", Map.of("extensions", List.of("usbguard"), "osImageURL", "quay.io/x"),
                        "60-worker-file",
                                Map.of(
                                        "config",
                                        Map.of(
                                                "storage",
                                                Map.of(
                                                        "files",
                                                        List.of(Map.of(
                                                                "path",
                                                                "/etc/a",
                                                                "contents",
                                                                Map.of("source", "data:,2"))))))));

        assertThat(rendered.spec())
                .containsEntry("kernelType", "realtime")
                .containsEntry("osImageURL", "quay.io/x")
                .containsEntry("extensions", List.of("usbguard"))
                .containsEntry("kernelArguments", List.of("psi=1", "nosmt"));
        assertThat(rendered.spec().get("config").toString()).contains("data:,2").doesNotContain("data:,1");
        assertThat(rendered.sources()).containsExactly("00-worker", "50-worker-ext", "60-worker-file", "99-worker-rt");
    }

    @Test
    void anyChangeGivesANewName() {
        String before = Renderer.render("worker", Map.of("00-worker", BASE)).name();
        String after = Renderer.render(
                        "worker", Map.of("00-worker", BASE, "99-worker-rt", Map.of("kernelType", "realtime")))
                .name();

        assertThat(after).isNotEqualTo(before);
    }
}
