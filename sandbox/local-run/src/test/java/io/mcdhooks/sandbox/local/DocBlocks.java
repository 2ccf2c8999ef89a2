package io.mcdhooks.sandbox.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fenced code blocks of the README and of everything under docs/, read as the reader sees them. */
final class DocBlocks {

    static final Path REPO = Path.of("../..").toAbsolutePath().normalize();

    /** One fenced block: where it starts (file relative to the repository, line of the fence), its language and text. */
    record Block(String file, int line, String language, String text) {

        String firstLine() {
            return text.lines().findFirst().orElse("");
        }

        List<String> lines() {
            return text.lines().toList();
        }

        @Override
        public String toString() {
            return file + ":" + line + " (" + firstLine() + ")";
        }
    }

    private DocBlocks() {}

    /** The markdown files whose commands and examples must run: README.md and docs/**.md. */
    static List<Path> documents() {
        List<Path> files = new ArrayList<>();
        files.add(REPO.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(REPO.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    static List<Block> all() {
        List<Block> blocks = new ArrayList<>();
        for (Path file : documents()) {
            blocks.addAll(of(file));
        }
        return blocks;
    }

    static List<Block> of(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("```")) {
                continue;
            }
            int start = i;
            StringBuilder text = new StringBuilder();
            for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
                text.append(lines.get(i)).append('\n');
            }
            blocks.add(new Block(
                    REPO.relativize(file).toString(),
                    start + 1,
                    lines.get(start).substring(3).trim(),
                    text.toString()));
        }
        return blocks;
    }

    /** The one block in {@code file} whose first line starts with {@code start}. */
    static Block find(String file, String start) {
        List<Block> found = of(REPO.resolve(file)).stream()
                .filter(b -> b.firstLine().startsWith(start))
                .toList();
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " blocks in " + file + " start with '" + start + "': " + found);
        }
        return found.get(0);
    }

    /** A shell line without its trailing comment (none of the documented commands has a # inside quotes). */
    static String command(String line) {
        int hash = line.indexOf(" #");
        return (hash < 0 ? line : line.substring(0, hash)).trim();
    }
}
