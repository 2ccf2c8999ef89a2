package io.mcdhooks.schemas.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertiesFileTest {

    @Test
    void readsTheEntriesOfTheFileTheVariableNames(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("a.properties"), "MCDHOOKS_HOOK_NAME=disk\n# comment\nx = y z\n");

        assertThat(PropertiesFile.read("MCDHOOKS_CONFIG_FILE", file.toString()))
                .containsOnlyKeys("MCDHOOKS_HOOK_NAME", "x")
                .containsEntry("x", "y z");
    }

    @Test
    void namesTheVariableWhenTheFileCannotBeRead(@TempDir Path dir) {
        String absent = dir.resolve("absent.properties").toString();

        assertThatThrownBy(() -> PropertiesFile.read("KAFKA_PROPERTIES_FILE", absent))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("KAFKA_PROPERTIES_FILE='" + absent + "' cannot be read (NoSuchFileException")
                .hasMessageEndingWith("expected the path of a readable properties file");
    }
}
