package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReviewBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReadWriteLock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * fabric8's CRUD dispatcher with an index by (kind, namespace, name).
 *
 * <p>The stock dispatcher finds an object by scanning every stored object, so each request costs
 * O(objects): with 5,000 nodes, their MachineConfigNodes and events, a single PATCH takes
 * milliseconds and a rollout takes hours. The index makes reads and writes of one named object
 * O(1); lists, watches, and deletes of collections or of objects with finalizers are unchanged.
 * It also keeps a closing watch from freezing the server (see {@link #handleWatch}).
 *
 * <p>In front of the store it does what kube-apiserver does before a write lands: authentication
 * ({@link Authenticator}) and validating admission ({@link ValidatingAdmission}) of every create,
 * update, patch (on the patched result) and delete, evaluated where the stock dispatcher is about to
 * store the new state ({@link #processEvent}), so status writes and deletes are seen exactly as stored.
 * Subresources the store does not keep (e.g. {@code pods/eviction}) are admitted before dispatch.
 */
final class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

    private static final String PLURAL = "plural";
    private static final String NAMESPACE = "namespace";
    private static final String NAME = "name";

    private static final String ADMISSION_PATH = "/apis/" + CompiledPolicy.GROUP + "/";
    private static final String SELF_SUBJECT_REVIEWS = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    private static final JsonMapper TREES = JsonMapper.builder().build();
    private static final KubernetesSerialization MODELS = new KubernetesSerialization();

    /** The write being served on this thread, for {@link #processEvent}. */
    private static final ThreadLocal<Write> CURRENT = new ThreadLocal<>();

    private final IndexedMap indexed;
    private final ReadWriteLock lock;
    private final Authenticator authenticator;
    private final ValidatingAdmission admission;
    private volatile RequestInterceptor interceptor;

    /** Who sends the write being served, and what admission adds to its response. */
    private static final class Write {
        final Identity user;
        final String method;
        final List<String> warnings = new ArrayList<>();

        Write(Identity user, String method) {
            this.user = user;
            this.method = method;
        }
    }

    IndexedCrudDispatcher(Authenticator authenticator, ValidatingAdmission admission) {
        this.authenticator = authenticator;
        this.admission = admission;
        this.indexed = new IndexedMap();
        try {
            Field map = CrudDispatcher.class.getDeclaredField("map");
            map.setAccessible(true);
            map.set(this, indexed);
            Field lockField = KubernetesCrudDispatcher.class.getDeclaredField("lock");
            lockField.setAccessible(true);
            this.lock = (ReadWriteLock) lockField.get(this);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("fabric8's CRUD dispatcher changed its fields", e);
        }
    }

    void intercept(RequestInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        Identity user;
        try {
            user = authenticator.authenticate(request);
        } catch (ApiError e) {
            return e.response();
        }
        RequestInterceptor current = interceptor;
        return current == null ? serve(request, user) : current.intercept(request, () -> serve(request, user));
    }

    private MockResponse serve(RecordedRequest request, Identity user) {
        String method = request.getMethod();
        if (method.equals("GET")) {
            return super.dispatch(request);
        }
        if (method.equals("POST") && request.getPath().startsWith(SELF_SUBJECT_REVIEWS)) {
            return selfSubjectReview(user);
        }
        Write write = new Write(user, method);
        CURRENT.set(write);
        try {
            if (method.equals("POST") && admission.enforcing()) {
                admitUnstoredSubresource(request, write);
            }
            MockResponse response = super.dispatch(request);
            for (String warning : write.warnings) {
                response.addHeader("Warning", "299 - \"" + warning.replace("\"", "'") + "\"");
            }
            return response;
        } catch (ApiError e) {
            return e.response();
        } finally {
            CURRENT.remove();
        }
    }

    /**
     * "Who am I": kube-apiserver answers a SelfSubjectReview with the request's own user, and
     * stores nothing ({@code pkg/registry/authentication/selfsubjectreview/rest.go} {@code Create}).
     */
    private static MockResponse selfSubjectReview(Identity user) {
        var review = new SelfSubjectReviewBuilder()
                .withNewStatus()
                .withNewUserInfo()
                .withUsername(user.username())
                .withGroups(user.groups())
                .withExtra(user.extra())
                .endUserInfo()
                .endStatus()
                .build();
        return new MockResponse()
                .setResponseCode(201)
                .setHeader("Content-Type", "application/json")
                .setBody(MODELS.asJson(review));
    }

    /** A POST to a subresource the store does not keep ({@code pods/eviction}): its body is the object. */
    private void admitUnstoredSubresource(RecordedRequest request, Write write) {
        ApiPath api = ApiPath.parse(request.getPath());
        if (api == null || api.subresource().isEmpty() || api.subresource().equals("status")) {
            return;
        }
        var attributes =
                AdmissionAttributes.ofJson("CREATE", api, write.user, body(request), null, () -> namespaceOf(api));
        write.warnings.addAll(admission.validate(attributes).warnings());
    }

    /**
     * Every change to the store passes here, under the write lock, with the state about to be stored
     * ({@code null}: removed). Policies and bindings are compiled before they are stored (a policy
     * that does not compile is refused, as kube-apiserver's validation refuses it); then the write is
     * admitted against the policies in force.
     */
    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        Write write = CURRENT.get();
        String oldState = null;
        ApiPath api = null;
        Runnable policyChange = null;
        if (path.startsWith(ADMISSION_PATH)) {
            api = ApiPath.parse(path);
            oldState = oldAttributes == null ? null : indexed.get(oldAttributes);
            policyChange = api == null ? null : policyChange(api, newState, oldState);
        }
        if (write != null && admission.enforcing()) {
            if (api == null) {
                api = ApiPath.parse(path);
                oldState = oldAttributes == null ? null : indexed.get(oldAttributes);
            }
            if (api != null && (api.subresource().isEmpty() || api.subresource().equals("status"))) {
                write.warnings.addAll(admission
                        .validate(attributes(write, api, newState, oldState))
                        .warnings());
            }
        }
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        if (policyChange != null) {
            policyChange.run();
        }
    }

    private AdmissionAttributes attributes(Write write, ApiPath api, String newState, String oldState) {
        String operation = switch (write.method) {
            case "POST" -> "CREATE";
            case "DELETE" -> "DELETE";
            default -> "UPDATE";
        };
        String object = operation.equals("DELETE") ? null : newState != null ? newState : oldState;
        String old = operation.equals("CREATE") ? null : oldState;
        return AdmissionAttributes.ofJson(operation, api, write.user, object, old, () -> namespaceOf(api));
    }

    /** What storing {@code newState} does to the policies in force, once it is stored. */
    private Runnable policyChange(ApiPath api, String newState, String oldState) {
        boolean policy = api.resource().equals("validatingadmissionpolicies");
        boolean binding = api.resource().equals("validatingadmissionpolicybindings");
        boolean served = api.version().equals("v1") || api.version().equals("v1beta1");
        if (!(policy || binding) || !served || !api.subresource().isEmpty()) {
            return null;
        }
        if (newState == null) {
            JsonNode old = tree(oldState);
            String name =
                    old == null ? api.name() : old.path("metadata").path("name").asString(api.name());
            return policy ? () -> admission.removePolicy(name) : () -> admission.removeBinding(name);
        }
        if (policy) {
            CompiledPolicy compiled = CompiledPolicy.of(MODELS.unmarshal(newState, ValidatingAdmissionPolicy.class));
            return () -> admission.putPolicy(compiled);
        }
        CompiledPolicy.Binding compiled =
                CompiledPolicy.Binding.of(MODELS.unmarshal(newState, ValidatingAdmissionPolicyBinding.class));
        return () -> admission.putBinding(compiled);
    }

    /** The stored Namespace of a namespaced request, for namespace selectors and {@code namespaceObject}. */
    private String namespaceOf(ApiPath api) {
        if (api.namespace().isEmpty()) {
            return null;
        }
        AttributeSet key = indexed.index.get("namespaces//" + api.namespace());
        return key == null ? null : indexed.get(key);
    }

    /** The request's body, left in place for the handler (getUtf8Body() would consume it). */
    private static String body(RecordedRequest request) {
        return request.getBody() == null ? null : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static JsonNode tree(String json) {
        return json == null || json.isEmpty() ? null : TREES.readTree(json);
    }

    /**
     * Deletes one named object without finalizers through the index; everything else (collections,
     * finalizers) goes the stock way. Watchers get the same DELETED event.
     */
    @Override
    public MockResponse handleDelete(String path) {
        if (!path.contains("?")) {
            AttributeSet query = attributeExtractor.fromPath(path);
            if (indexKey(query) != null && path.endsWith("/" + single(query, NAME))) {
                lock.writeLock().lock();
                try {
                    var found = findResource(query);
                    if (found == null) {
                        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
                    }
                    if (!found.getValue().contains("\"finalizers\"")) {
                        processEvent(path, query, found.getKey(), null, null);
                        return new MockResponse()
                                .setResponseCode(HttpURLConnection.HTTP_OK)
                                .setBody(found.getValue());
                    }
                } finally {
                    lock.writeLock().unlock();
                }
            }
        }
        return super.handleDelete(path);
    }

    /**
     * Watches as usual, but closing one no longer blocks the server. The stock listener waits (up
     * to a minute) on its sender thread from inside the server's event loop, while that thread may
     * need the event loop to send a queued event: closing a watch during a burst of changes froze
     * the whole API server.
     */
    @Override
    public MockResponse handleWatch(String path) {
        MockResponse response = super.handleWatch(path);
        WebSocketListener listener = response.getWebSocketListener();
        return listener == null ? response : response.withWebSocketUpgrade(new NonBlockingClose(listener));
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        String key = indexKey(query);
        if (key == null) {
            return super.findResource(query);
        }
        AttributeSet stored = indexed.index.get(key);
        if (stored == null || !stored.matches(query)) {
            return null;
        }
        String body = indexed.get(stored);
        return body == null ? null : new AbstractMap.SimpleImmutableEntry<>(stored, body);
    }

    @Override
    public MockResponse handleGet(String path) {
        String plainPath = path.contains("?") ? null : path;
        if (plainPath != null) {
            AttributeSet query = attributeExtractor.fromPath(plainPath);
            String key = indexKey(query);
            if (key != null && plainPath.endsWith("/" + single(query, NAME))) {
                var found = findResource(query);
                return found == null
                        ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
                        : new MockResponse()
                                .setResponseCode(HttpURLConnection.HTTP_OK)
                                .setBody(found.getValue());
            }
        }
        return super.handleGet(path);
    }

    private static String indexKey(AttributeSet set) {
        String plural = single(set, PLURAL);
        String name = single(set, NAME);
        if (plural == null || name == null) {
            return null;
        }
        String namespace = single(set, NAMESPACE);
        return plural + '/' + (namespace == null ? "" : namespace) + '/' + name;
    }

    private static String single(AttributeSet set, String key) {
        Attribute attribute = set.getAttribute(key);
        if (attribute == null || attribute.getValues().size() != 1) {
            return null;
        }
        return attribute.getValues().get(0).toString();
    }

    /** Delegates to a watch listener, running its close handling off the event loop. */
    private static final class NonBlockingClose extends WebSocketListener {
        private static final Executor CLOSER = runnable -> {
            Thread t = new Thread(runnable, "mock-watch-close");
            t.setDaemon(true);
            t.start();
        };

        private final WebSocketListener delegate;

        NonBlockingClose(WebSocketListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            delegate.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            delegate.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            delegate.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, ByteString bytes) {
            delegate.onMessage(webSocket, bytes);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            delegate.onMessage(webSocket, bytes);
        }

        @Override
        public void onPing(WebSocket webSocket, byte[] bytes) {
            delegate.onPing(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            delegate.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            CLOSER.execute(() -> delegate.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable t, Response response) {
            CLOSER.execute(() -> delegate.onFailure(webSocket, t, response));
        }
    }

    /** The dispatcher's store, plus the index; every mutation goes through put, remove or clear. */
    private static final class IndexedMap extends AbstractMap<AttributeSet, String> {
        private final Map<AttributeSet, String> store = Collections.synchronizedMap(new LinkedHashMap<>());
        private final Map<String, AttributeSet> index = new ConcurrentHashMap<>();

        @Override
        public String put(AttributeSet key, String value) {
            String previous = store.put(key, value);
            String indexKey = indexKey(key);
            if (indexKey != null) {
                index.put(indexKey, key);
            }
            return previous;
        }

        @Override
        public String remove(Object key) {
            String previous = store.remove(key);
            if (previous != null && key instanceof AttributeSet set) {
                String indexKey = indexKey(set);
                if (indexKey != null) {
                    index.remove(indexKey, set);
                }
            }
            return previous;
        }

        @Override
        public String get(Object key) {
            return store.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return store.containsKey(key);
        }

        @Override
        public void clear() {
            store.clear();
            index.clear();
        }

        @Override
        public int size() {
            return store.size();
        }

        @Override
        public Set<Entry<AttributeSet, String>> entrySet() {
            return Collections.unmodifiableMap(store).entrySet();
        }
    }
}
