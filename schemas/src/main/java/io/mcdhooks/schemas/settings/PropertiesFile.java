package io.mcdhooks.schemas.settings;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** A Java properties file (UTF-8) that a variable names, read as settings. */
public final class PropertiesFile {

    private PropertiesFile() {}

    /** The entries of the file {@code variable} names; throws {@link ConfigException} naming the variable. */
    public static Map<String, String> read(String variable, String file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(file.trim()), StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(
                    variable + "='" + file + "' cannot be read (" + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + "): expected the path of a readable properties file");
        }
        Map<String, String> entries = new TreeMap<>();
        properties.forEach((k, v) -> entries.put(k.toString(), v.toString()));
        return entries;
    }
}
