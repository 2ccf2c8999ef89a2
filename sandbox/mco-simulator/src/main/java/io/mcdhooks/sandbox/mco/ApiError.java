package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;

/**
 * A refusal of the in-memory API server, answered with the {@code Status} object kube-apiserver
 * sends ({@code k8s.io/apimachinery/pkg/api/errors}): fabric8's client turns it into a
 * {@code KubernetesClientException} with this code, reason and message.
 */
final class ApiError extends RuntimeException {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final transient Status status;

    private ApiError(Status status) {
        super(status.getMessage(), null, false, false);
        this.status = status;
    }

    /**
     * {@code <resource> "<name>" is forbidden: <detail>} with the given reason and code, as
     * {@code admission.NewForbidden} words every admission denial (the policy plugin then replaces
     * reason and code).
     */
    static ApiError forbidden(
            ApiPath path, String name, String detail, String reason, int code, List<StatusCause> causes) {
        String subject = path.qualifiedResource() + (name.isEmpty() ? "" : " \"" + name + "\"");
        return new ApiError(new StatusBuilder()
                .withStatus("Failure")
                .withMessage(subject + " is forbidden: " + detail)
                .withReason(reason)
                .withCode(code)
                .withNewDetails()
                .withName(name.isEmpty() ? null : name)
                .withGroup(path.group().isEmpty() ? null : path.group())
                .withKind(path.resource())
                .withCauses(causes)
                .endDetails()
                .build());
    }

    /** 403 Forbidden for an identity RBAC would not let do this. */
    static ApiError forbidden(ApiPath path, String detail) {
        return forbidden(path, path.name(), detail, "Forbidden", 403, List.of());
    }

    /** 403 Forbidden on a path that names no resource. */
    static ApiError forbiddenPath(String detail) {
        return plain("forbidden: " + detail, "Forbidden", 403);
    }

    /** 422 Invalid: {@code <Kind>.<group> "<name>" is invalid: <field errors>}. */
    static ApiError invalid(String kind, String group, String name, List<String> fieldErrors) {
        String errors = fieldErrors.size() == 1 ? fieldErrors.get(0) : "[" + String.join(", ", fieldErrors) + "]";
        return new ApiError(new StatusBuilder()
                .withStatus("Failure")
                .withMessage(kind + "." + group + " \"" + name + "\" is invalid: " + errors)
                .withReason("Invalid")
                .withCode(422)
                .withNewDetails()
                .withName(name)
                .withGroup(group)
                .withKind(kind)
                .endDetails()
                .build());
    }

    static ApiError unauthorized() {
        return plain("Unauthorized", "Unauthorized", 401);
    }

    static ApiError internal(String message) {
        return plain("Internal error occurred: " + message, "InternalError", 500);
    }

    private static ApiError plain(String message, String reason, int code) {
        return new ApiError(new StatusBuilder()
                .withStatus("Failure")
                .withMessage(message)
                .withReason(reason)
                .withCode(code)
                .build());
    }

    Status status() {
        return status;
    }

    MockResponse response() {
        return new MockResponse()
                .setResponseCode(status.getCode())
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.asJson(status));
    }
}
