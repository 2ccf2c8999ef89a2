package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who sends a request, as kube-apiserver's authentication hands it to admission
 * ({@code request.userInfo}): a user name, its groups and extra claims.
 *
 * <p>The factories give the names real credentials carry: a service-account token
 * ({@code system:serviceaccount:<ns>:<name>}, groups {@code system:serviceaccounts},
 * {@code system:serviceaccounts:<ns>}, {@code system:authenticated}), a kubelet's client certificate
 * ({@code system:node:<name>}, {@code system:nodes}) and the installer's admin certificate
 * ({@code system:admin}, {@code system:masters}).
 */
public record Identity(String username, List<String> groups, Map<String, List<String>> extra) {

    public static final String AUTHENTICATED = "system:authenticated";
    public static final String UNAUTHENTICATED = "system:unauthenticated";
    public static final String MASTERS = "system:masters";
    public static final String SERVICE_ACCOUNTS = "system:serviceaccounts";
    public static final String NODES = "system:nodes";

    /**
     * The claim a bound service-account token carries for the node its pod runs on (Kubernetes
     * 1.30+); the MCO's {@code mcn-guards} policy checks it on the MCD's writes.
     */
    public static final String NODE_NAME_CLAIM = "authentication.kubernetes.io/node-name";

    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    public Identity {
        Objects.requireNonNull(username, "username");
        if (username.isBlank()) {
            throw new IllegalArgumentException("an identity needs a user name");
        }
        groups = List.copyOf(groups);
        var copy = new LinkedHashMap<String, List<String>>();
        extra.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        extra = Map.copyOf(copy);
    }

    /** A user with these groups plus {@code system:authenticated}. */
    public static Identity user(String username, String... groups) {
        var all = new ArrayList<>(List.of(groups));
        if (!all.contains(AUTHENTICATED)) {
            all.add(AUTHENTICATED);
        }
        return new Identity(username, all, Map.of());
    }

    /** A cluster administrator: a user in {@code system:masters}. */
    public static Identity clusterAdmin(String username) {
        return user(username, MASTERS);
    }

    /** {@code system:admin} in {@code system:masters}, as the installer's kubeconfig authenticates. */
    public static Identity admin() {
        return clusterAdmin("system:admin");
    }

    /** A service account's token, as the token authenticator names it. */
    public static Identity serviceAccount(String namespace, String name) {
        return new Identity(
                SERVICE_ACCOUNT_PREFIX + namespace + ":" + name,
                List.of(SERVICE_ACCOUNTS, SERVICE_ACCOUNTS + ":" + namespace, AUTHENTICATED),
                Map.of());
    }

    /** A kubelet's client certificate. */
    public static Identity node(String name) {
        return new Identity("system:node:" + name, List.of(NODES, AUTHENTICATED), Map.of());
    }

    /** What kube-apiserver makes of a request without credentials. */
    public static Identity anonymous() {
        return new Identity("system:anonymous", List.of(UNAUTHENTICATED), Map.of());
    }

    /** This identity with one more extra claim. */
    public Identity withExtra(String key, String... values) {
        var copy = new LinkedHashMap<>(extra);
        copy.put(key, List.of(values));
        return new Identity(username, groups, copy);
    }

    /** A service account's bound token from a pod on {@code node}: the token names the node. */
    public Identity onNode(String node) {
        return withExtra(NODE_NAME_CLAIM, node);
    }

    public boolean isAnonymous() {
        return username.equals("system:anonymous");
    }

    public boolean isServiceAccount() {
        return username.startsWith(SERVICE_ACCOUNT_PREFIX);
    }

    public boolean inGroup(String group) {
        return groups.contains(group);
    }

    /**
     * {@code base}'s request settings, sending every request as this identity: fabric8 then adds
     * {@code Impersonate-User}, one {@code Impersonate-Group} per group and one
     * {@code Impersonate-Extra-<key>} per extra value (keys percent-encoded as client-go does, since
     * a header name cannot hold {@code /}).
     */
    public RequestConfig requestConfig(RequestConfig base) {
        var extras = new LinkedHashMap<String, List<String>>();
        extra.forEach((k, v) -> extras.put(URLEncoder.encode(k, StandardCharsets.UTF_8), v));
        return new RequestConfigBuilder(base)
                .withImpersonateUsername(username)
                .withImpersonateGroups(groups.toArray(String[]::new))
                .withImpersonateExtras(extras)
                .build();
    }

    /**
     * A client that sends {@code base}'s requests as this identity, sharing {@code base}'s connections
     * and watches' transport: cheap enough for one per simulated node. Closing it closes
     * {@code base}, so close {@code base} instead. {@code base} must be allowed to impersonate (on the
     * in-memory API server: a member of {@code system:masters}).
     */
    public KubernetesClient client(KubernetesClient base) {
        RequestConfig config = requestConfig(base.getConfiguration().getRequestConfig());
        return base.newClient(config).adapt(KubernetesClient.class);
    }
}
