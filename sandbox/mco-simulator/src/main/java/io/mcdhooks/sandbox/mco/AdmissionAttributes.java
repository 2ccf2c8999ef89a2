package io.mcdhooks.sandbox.mco;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One write as admission sees it: the operation, what it addresses, who sends it, and the object
 * before ({@code oldObject}) and after ({@code object}) — the patched or updated result, {@code null}
 * on delete; {@code oldObject} is {@code null} on create. Objects are parsed, and their CEL views
 * built, on first use, so a write that no policy's rules match costs no parsing.
 */
final class AdmissionAttributes {

    private final String operation;
    private final ApiPath path;
    private final Identity user;
    private final Lazy object;
    private final Lazy oldObject;
    private final Lazy namespaceObject;
    private Map<String, Object> celRequest;
    private Object celObject;
    private Object celOldObject;
    private Object celNamespaceObject;

    AdmissionAttributes(
            String operation,
            ApiPath path,
            Identity user,
            JsonNode object,
            JsonNode oldObject,
            JsonNode namespaceObject) {
        this(operation, path, user, Lazy.of(object), Lazy.of(oldObject), Lazy.of(namespaceObject));
    }

    private AdmissionAttributes(
            String operation, ApiPath path, Identity user, Lazy object, Lazy oldObject, Lazy namespaceObject) {
        this.operation = operation;
        this.path = path;
        this.user = user;
        this.object = object;
        this.oldObject = oldObject;
        this.namespaceObject = namespaceObject;
    }

    /** A write whose objects are JSON text ({@code null}: absent), parsed only if a policy needs them. */
    static AdmissionAttributes ofJson(
            String operation,
            ApiPath path,
            Identity user,
            String object,
            String oldObject,
            Supplier<String> namespace) {
        return new AdmissionAttributes(
                operation,
                path,
                user,
                Lazy.parsing(() -> object),
                Lazy.parsing(() -> oldObject),
                Lazy.parsing(namespace));
    }

    /** A JSON value parsed at most once; {@link #get()} is {@code null} for an absent one. */
    private static final class Lazy {
        private static final JsonMapper JSON = JsonMapper.builder().build();
        private Supplier<String> text;
        private JsonNode node;

        static Lazy of(JsonNode node) {
            var lazy = new Lazy();
            lazy.node = node;
            return lazy;
        }

        static Lazy parsing(Supplier<String> text) {
            var lazy = new Lazy();
            lazy.text = text;
            return lazy;
        }

        JsonNode get() {
            if (text != null) {
                String json = text.get();
                node = json == null || json.isEmpty() ? null : JSON.readTree(json);
                text = null;
            }
            return node;
        }
    }

    String operation() {
        return operation;
    }

    ApiPath path() {
        return path;
    }

    Identity user() {
        return user;
    }

    /** The object's name: from the path, or on create from the object (empty for generateName). */
    String name() {
        if (!path.name().isEmpty()) {
            return path.name();
        }
        JsonNode o = object.get();
        return o == null ? "" : o.path("metadata").path("name").asString("");
    }

    /** The labels of the new object, {@code null} if there is none (a delete). */
    Map<String, String> objectLabels() {
        return labels(object.get());
    }

    /** The labels of the old object, {@code null} if there is none (a create). */
    Map<String, String> oldObjectLabels() {
        return labels(oldObject.get());
    }

    /** The labels of the request's namespace, empty if it is cluster-scoped or not stored. */
    Map<String, String> namespaceLabels() {
        Map<String, String> labels = labels(namespaceObject.get());
        return labels == null ? Map.of() : labels;
    }

    /** The CEL variables {@code object}, {@code oldObject}, {@code namespaceObject} and {@code request}. */
    Map<String, Object> celInput() {
        if (celRequest == null) {
            celObject = AdmissionCel.value(object.get());
            celOldObject = AdmissionCel.value(oldObject.get());
            celNamespaceObject = AdmissionCel.value(namespaceObject.get());
            celRequest = request();
        }
        var input = new LinkedHashMap<String, Object>();
        input.put("object", celObject);
        input.put("oldObject", celOldObject);
        input.put("namespaceObject", celNamespaceObject);
        input.put("request", celRequest);
        return input;
    }

    /**
     * {@code request} as kube-apiserver builds it ({@code admission/v1 AdmissionRequest}, JSON with
     * {@code omitempty}): a field left empty is absent, so policies test it with {@code has()}.
     */
    private Map<String, Object> request() {
        JsonNode typed = object.get() != null ? object.get() : oldObject.get();
        String apiVersion = typed == null ? "" : typed.path("apiVersion").asString("");
        int slash = apiVersion.indexOf('/');
        var kind = new LinkedHashMap<String, Object>();
        kind.put("group", slash < 0 ? "" : apiVersion.substring(0, slash));
        kind.put("version", slash < 0 ? apiVersion : apiVersion.substring(slash + 1));
        kind.put("kind", typed == null ? "" : typed.path("kind").asString(""));
        var resource = new LinkedHashMap<String, Object>();
        resource.put("group", path.group());
        resource.put("version", path.version());
        resource.put("resource", path.resource());
        var userInfo = new LinkedHashMap<String, Object>();
        userInfo.put("username", user.username());
        if (!user.groups().isEmpty()) {
            userInfo.put("groups", new ArrayList<Object>(user.groups()));
        }
        if (!user.extra().isEmpty()) {
            var extra = new LinkedHashMap<String, Object>();
            user.extra().forEach((k, v) -> extra.put(k, new ArrayList<Object>(v)));
            userInfo.put("extra", extra);
        }
        var request = new LinkedHashMap<String, Object>();
        request.put("uid", UUID.randomUUID().toString());
        request.put("kind", kind);
        request.put("resource", resource);
        putIfNotEmpty(request, "subResource", path.subresource());
        request.put("requestKind", kind);
        request.put("requestResource", resource);
        putIfNotEmpty(request, "requestSubResource", path.subresource());
        putIfNotEmpty(request, "name", name());
        putIfNotEmpty(request, "namespace", path.namespace());
        request.put("operation", operation);
        request.put("userInfo", userInfo);
        request.put("dryRun", false);
        return request;
    }

    private static void putIfNotEmpty(Map<String, Object> map, String key, String value) {
        if (!value.isEmpty()) {
            map.put(key, value);
        }
    }

    private static Map<String, String> labels(JsonNode node) {
        if (node == null) {
            return null;
        }
        JsonNode labels = node.path("metadata").path("labels");
        if (!labels.isObject()) {
            return Map.of();
        }
        var out = new LinkedHashMap<String, String>();
        labels.forEachEntry((k, v) -> out.put(k, v.asString("")));
        return out;
    }

    @Override
    public String toString() {
        return operation + " " + path.qualifiedResource()
                + (path.subresource().isEmpty() ? "" : "/" + path.subresource()) + " " + path.namespace() + "/"
                + name() + " by " + user.username();
    }
}
