package io.mcdhooks.schemas;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The example messages under {@code src/test/resources}: one file per message, named by kind. */
public final class Examples {

    private Examples() {}

    /** Files of a folder on the test classpath, e.g. {@code examples} or {@code invalid}. */
    public static Stream<Path> in(String folder) {
        try {
            Path dir = Path.of(Examples.class.getResource("/" + folder).toURI());
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The kind a file holds, from its name: {@code gate-request.v1.<case>.json}. */
    public static MessageKind kindOf(Path file) {
        String name = file.getFileName().toString();
        for (MessageKind kind : MessageKind.values()) {
            if (name.startsWith(kind.schemaFile().replace(".json", "."))) {
                return kind;
            }
        }
        throw new IllegalArgumentException("no message kind for " + name);
    }

    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
