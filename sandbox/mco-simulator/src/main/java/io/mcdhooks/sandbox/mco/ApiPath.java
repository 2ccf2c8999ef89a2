package io.mcdhooks.sandbox.mco;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * What a Kubernetes API request path names, as kube-apiserver's request-info resolver reads it:
 * {@code /api/v1[/namespaces/<ns>]/<resource>[/<name>[/<subresource>]]} or the same under
 * {@code /apis/<group>/<version>}. Empty strings stand for "none" (core group, cluster scope, a
 * collection, the main resource).
 */
record ApiPath(
        String group,
        String version,
        String namespace,
        String resource,
        String name,
        String subresource,
        String query) {

    /** The resource path of {@code path}, or {@code null} for discovery, health and other non-resource paths. */
    static ApiPath parse(String path) {
        String query = "";
        int q = path.indexOf('?');
        if (q >= 0) {
            query = path.substring(q + 1);
            path = path.substring(0, q);
        }
        String[] s = path.startsWith("/") ? path.substring(1).split("/", -1) : path.split("/", -1);
        int i;
        String group;
        if (s.length >= 3 && s[0].equals("api")) {
            group = "";
            i = 1;
        } else if (s.length >= 4 && s[0].equals("apis")) {
            group = s[1];
            i = 2;
        } else {
            return null;
        }
        String version = s[i++];
        String namespace = "";
        // /namespaces/<ns>/<resource>...; /namespaces/<ns>[/status|/finalize] is the Namespace object
        // itself (cluster-scoped here; kube-apiserver also puts its name in request.namespace).
        if (s.length - i >= 3
                && s[i].equals("namespaces")
                && !(s.length - i == 3 && (s[i + 2].equals("status") || s[i + 2].equals("finalize")))) {
            namespace = decode(s[i + 1]);
            i += 2;
        }
        int left = s.length - i;
        if (left < 1 || left > 3 || s[i].isEmpty()) {
            return null;
        }
        return new ApiPath(
                group, version, namespace, s[i], left >= 2 ? decode(s[i + 1]) : "", left == 3 ? s[i + 2] : "", query);
    }

    /** The verb RBAC would authorise, for an error message. */
    String verb(String method) {
        return switch (method) {
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default ->
                query.contains("watch=true") || query.contains("watch=1") ? "watch" : name.isEmpty() ? "list" : "get";
        };
    }

    /** {@code nodes}, or {@code machineconfigpools.machineconfiguration.openshift.io}, as Status messages name a resource. */
    String qualifiedResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    private static String decode(String segment) {
        return segment.indexOf('%') < 0 ? segment : URLDecoder.decode(segment, StandardCharsets.UTF_8);
    }
}
