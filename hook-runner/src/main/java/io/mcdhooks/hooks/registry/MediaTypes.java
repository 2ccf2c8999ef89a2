package io.mcdhooks.hooks.registry;

import java.util.List;
import java.util.Locale;

/** The manifest and config media types this client reads, OCI and Docker schema 2. */
public final class MediaTypes {

    public static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    public static final String OCI_CONFIG = "application/vnd.oci.image.config.v1+json";
    public static final String DOCKER_MANIFEST_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
    public static final String DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
    public static final String DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json";

    /** Indexes first: a multi-architecture image must not be flattened by the registry to one platform. */
    public static final List<String> MANIFESTS =
            List.of(OCI_INDEX, DOCKER_MANIFEST_LIST, OCI_MANIFEST, DOCKER_MANIFEST);

    public static final List<String> CONFIGS = List.of(OCI_CONFIG, DOCKER_CONFIG);

    /** The Accept header of every manifest request. */
    public static final String MANIFEST_ACCEPT = String.join(", ", MANIFESTS);

    private MediaTypes() {}

    static boolean isIndex(String type) {
        return OCI_INDEX.equals(type) || DOCKER_MANIFEST_LIST.equals(type);
    }

    /** {@code type} without parameters, lower-case; {@code null} stays {@code null}. */
    static String bare(String type) {
        if (type == null) {
            return null;
        }
        int semicolon = type.indexOf(';');
        return (semicolon >= 0 ? type.substring(0, semicolon) : type).trim().toLowerCase(Locale.ROOT);
    }
}
