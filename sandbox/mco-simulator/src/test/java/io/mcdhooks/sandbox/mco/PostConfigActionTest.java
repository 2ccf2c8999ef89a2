package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostConfigActionTest {

    private static Map<String, Object> spec(String kernel, List<Map<String, Object>> files, Object passwd) {
        return Map.of(
                "kernelType",
                kernel,
                "osImageURL",
                "img",
                "config",
                passwd == null
                        ? Map.of("storage", Map.of("files", files))
                        : Map.of("storage", Map.of("files", files), "passwd", passwd));
    }

    private static Map<String, Object> file(String path, String data) {
        return Map.of("path", path, "contents", Map.of("source", "data:," + data));
    }

    @Test
    void osChangesReboot() {
        assertThat(PostConfigAction.between(spec("default", List.of(), null), spec("realtime", List.of(), null)))
                .isEqualTo(PostConfigAction.REBOOT);
    }

    @Test
    void registriesOnlyReloadsCrio() {
        assertThat(PostConfigAction.between(
                        spec("default", List.of(file("/etc/containers/registries.conf", "a")), null),
                        spec("default", List.of(file("/etc/containers/registries.conf", "b")), null)))
                .isEqualTo(PostConfigAction.SERVICE_RELOAD);
    }

    @Test
    void sshKeysOnlyNeedNothing() {
        assertThat(PostConfigAction.between(
                        spec("default", List.of(), Map.of("users", List.of("a"))),
                        spec("default", List.of(), Map.of("users", List.of("b")))))
                .isEqualTo(PostConfigAction.NONE);
    }

    @Test
    void otherFilesReboot() {
        assertThat(PostConfigAction.between(
                        spec("default", List.of(file("/etc/a", "1")), null),
                        spec("default", List.of(file("/etc/a", "2")), null)))
                .isEqualTo(PostConfigAction.REBOOT);
    }
}
