package io.mcdhooks.sandbox.mco;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who sent a request, as kube-apiserver's authentication and impersonation filters decide
 * ({@code endpoints/filters/authentication.go}, {@code impersonation.go}):
 *
 * <ul>
 *   <li>a bearer token this server issued ({@link #tokenFor}) names its identity, the way a
 *       service-account token does; an unknown token is refused (401);
 *   <li>{@code Impersonate-User}/{@code -Group}/{@code -Extra-<key>} then replace it, if the
 *       authenticated user may impersonate (here: members of {@code system:masters}, as RBAC's
 *       defaults allow); a service account impersonated without groups gets its fixed groups, and
 *       {@code system:authenticated} is added when no groups are given;
 *   <li>no credentials at all is {@code system:anonymous}, and RBAC's defaults let it read only
 *       {@code /version} and the health endpoints: everything else is refused (403). That catches a
 *       client that was never given an identity instead of letting it pass as an administrator.
 * </ul>
 *
 * <p>Impersonation is not checked against RBAC beyond that, and there is no RBAC for the requests
 * themselves: an authenticated identity may do anything; only admission policies restrict it.
 */
final class Authenticator {

    private static final String BEARER = "Bearer ";
    private static final String IMPERSONATE_USER = "impersonate-user";
    private static final String IMPERSONATE_GROUP = "impersonate-group";
    private static final String IMPERSONATE_EXTRA = "impersonate-extra-";
    private static final List<String> PUBLIC_PATHS = List.of("/version", "/healthz", "/livez", "/readyz");

    private final Map<String, Identity> byToken = new ConcurrentHashMap<>();
    private final Map<Identity, String> tokens = new ConcurrentHashMap<>();

    /** The bearer token that authenticates as {@code identity}, issued on first request. */
    String tokenFor(Identity identity) {
        return tokens.computeIfAbsent(identity, id -> {
            String token = "in-memory-" + UUID.randomUUID();
            byToken.put(token, id);
            return token;
        });
    }

    /** The identity the request acts as, or the refusal kube-apiserver would answer it with. */
    Identity authenticate(RecordedRequest request) {
        Map<String, List<String>> headers = request.getHeaders().toMultimap();
        Identity authenticated = Identity.anonymous();
        String impersonatedUser = null;
        List<String> impersonatedGroups = null;
        Map<String, List<String>> impersonatedExtra = null;
        for (var header : headers.entrySet()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            List<String> values = header.getValue();
            if (name.equals("authorization")) {
                String value = values.isEmpty() ? "" : values.get(0);
                if (value.startsWith(BEARER)) {
                    authenticated = byToken.get(value.substring(BEARER.length()).trim());
                    if (authenticated == null) {
                        throw ApiError.unauthorized();
                    }
                }
            } else if (name.equals(IMPERSONATE_USER)) {
                impersonatedUser = values.isEmpty() ? null : values.get(0);
            } else if (name.equals(IMPERSONATE_GROUP)) {
                impersonatedGroups = values;
            } else if (name.startsWith(IMPERSONATE_EXTRA)) {
                if (impersonatedExtra == null) {
                    impersonatedExtra = new LinkedHashMap<>();
                }
                String key = URLDecoder.decode(name.substring(IMPERSONATE_EXTRA.length()), StandardCharsets.UTF_8);
                impersonatedExtra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(values);
            }
        }
        if (impersonatedUser == null || impersonatedUser.isEmpty()) {
            if (impersonatedGroups != null || impersonatedExtra != null) {
                throw ApiError.internal("requested impersonation of groups or extras without impersonating a user");
            }
            if (authenticated.isAnonymous()) {
                refuseAnonymous(request);
            }
            return authenticated;
        }
        if (!authenticated.inGroup(Identity.MASTERS)) {
            throw impersonationForbidden(authenticated, impersonatedUser);
        }
        return impersonated(impersonatedUser, impersonatedGroups, impersonatedExtra);
    }

    private static Identity impersonated(String user, List<String> groups, Map<String, List<String>> extra) {
        var all = new ArrayList<String>();
        if (groups != null) {
            all.addAll(groups);
        } else {
            if (user.startsWith("system:serviceaccount:")) {
                String[] parts = user.split(":");
                all.add(Identity.SERVICE_ACCOUNTS);
                all.add(Identity.SERVICE_ACCOUNTS + ":" + parts[2]);
            }
            if (!user.equals("system:anonymous")
                    && !all.contains(Identity.AUTHENTICATED)
                    && !all.contains(Identity.UNAUTHENTICATED)) {
                all.add(Identity.AUTHENTICATED);
            }
        }
        return new Identity(user, all, extra == null ? Map.of() : extra);
    }

    private static void refuseAnonymous(RecordedRequest request) {
        String path = request.getPath();
        int q = path.indexOf('?');
        String plain = q < 0 ? path : path.substring(0, q);
        for (String open : PUBLIC_PATHS) {
            if (plain.equals(open) || plain.startsWith(open + "/")) {
                return;
            }
        }
        ApiPath api = ApiPath.parse(path);
        String user = "User \"system:anonymous\"";
        if (api == null) {
            throw ApiError.forbiddenPath(user + " cannot get path \"" + plain + "\"");
        }
        String resource = api.resource() + (api.subresource().isEmpty() ? "" : "/" + api.subresource());
        String scope =
                api.namespace().isEmpty() ? "at the cluster scope" : "in the namespace \"" + api.namespace() + "\"";
        throw ApiError.forbidden(
                api,
                user + " cannot " + api.verb(request.getMethod()) + " resource \"" + resource + "\" in API group \""
                        + api.group() + "\" " + scope);
    }

    private static ApiError impersonationForbidden(Identity requester, String user) {
        boolean serviceAccount = user.startsWith("system:serviceaccount:");
        String[] parts = user.split(":");
        String resource = serviceAccount ? "serviceaccounts" : "users";
        String name = serviceAccount && parts.length == 4 ? parts[3] : user;
        String scope =
                serviceAccount && parts.length == 4 ? "in the namespace \"" + parts[2] + "\"" : "at the cluster scope";
        var path = new ApiPath("", "v1", "", resource, name, "", "");
        return ApiError.forbidden(
                path,
                "User \"" + requester.username() + "\" cannot impersonate resource \"" + resource
                        + "\" in API group \"\" " + scope);
    }
}
