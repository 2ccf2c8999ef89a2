package io.mcdhooks.hooks.registry;

import java.util.regex.Pattern;

/**
 * An image reference as the distribution project's grammar defines it: {@code
 * [host[:port]/]path[:tag][@digest]}. A reference without a host is Docker Hub's ({@code
 * docker.io}, one-component paths under {@code library/}), as container tools read it.
 *
 * @param registry   {@code host[:port]} as written (lower-case for Docker Hub's aliases)
 * @param repository the path, e.g. {@code openshift-release-dev/ocp-v4.0-art-dev}
 * @param tag        {@code null} when absent
 * @param digest     {@code null} when not pinned; when both are given the digest is what is pulled
 */
public record ImageReference(String registry, String repository, String tag, Digest digest) {

    public static final String DOCKER_HUB = "docker.io";

    private static final Pattern DOMAIN = Pattern.compile(
            "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*"
                    + "(?::[0-9]+)?|\\[[a-fA-F0-9:]+](?::[0-9]+)?");
    private static final Pattern PATH =
            Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*");
    private static final Pattern TAG = Pattern.compile("[\\w][\\w.-]{0,127}");
    private static final int MAX_NAME = 255;

    public ImageReference {
        if (registry == null || !DOMAIN.matcher(registry).matches()) {
            throw new IllegalArgumentException("'" + registry + "' is not a registry host[:port]");
        }
        if (repository == null || !PATH.matcher(repository).matches()) {
            throw new IllegalArgumentException("'" + repository
                    + "' is not a repository path (lower-case components of letters and digits joined by . _ __ -,"
                    + " separated by /)");
        }
        if ((registry + "/" + repository).length() > MAX_NAME) {
            throw new IllegalArgumentException(
                    "the name " + registry + "/" + repository + " is longer than " + MAX_NAME);
        }
        if (tag != null && !TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("'" + tag + "' is not a tag ([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})");
        }
        if (tag == null && digest == null) {
            throw new IllegalArgumentException(registry + "/" + repository + " names neither a tag nor a digest");
        }
    }

    /** Parses a reference; a bare name means {@code :latest}, as container tools read it. */
    public static ImageReference parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no image reference");
        }
        String rest = text.trim();
        Digest digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = Digest.parse(rest.substring(at + 1));
            rest = rest.substring(0, at);
        }
        String registry = DOCKER_HUB;
        int slash = rest.indexOf('/');
        if (slash > 0) {
            String first = rest.substring(0, slash);
            if (first.contains(".") || first.contains(":") || first.equals("localhost")) {
                registry = first;
                rest = rest.substring(slash + 1);
            }
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon >= 0) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        if (registry.equals(DOCKER_HUB) && !rest.contains("/")) {
            rest = "library/" + rest;
        }
        if (tag == null && digest == null) {
            tag = "latest";
        }
        try {
            return new ImageReference(registry, rest, tag, digest);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not an image reference: " + e.getMessage(), e);
        }
    }

    /** {@code registry/repository}. */
    public String name() {
        return registry + "/" + repository;
    }

    /** What the API is asked for: the digest when pinned, else the tag. */
    public String apiReference() {
        return digest != null ? digest.toString() : tag;
    }

    public boolean pinned() {
        return digest != null;
    }

    /** This reference pinned to {@code resolved}, keeping its tag for the reader. */
    public ImageReference withDigest(Digest resolved) {
        return new ImageReference(registry, repository, tag, resolved);
    }

    /** The same tag or digest under another name (a mirror's). */
    public ImageReference withName(String newRegistry, String newRepository) {
        return new ImageReference(newRegistry, newRepository, tag, digest);
    }

    @Override
    public String toString() {
        return name() + (tag != null ? ":" + tag : "") + (digest != null ? "@" + digest : "");
    }
}
