package io.mcdhooks.mco.disruption;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One node disruption action of the MCO's API ({@code operator.openshift.io/v1}
 * {@code NodeDisruptionPolicyStatusAction}): what the MCD does to apply a change.
 *
 * @param type the action
 * @param service the unit a {@link Type#RELOAD} or {@link Type#RESTART} acts on, else null
 */
public record DisruptionAction(Type type, String service) {

    /** The action types, with the names the API uses. */
    public enum Type {
        REBOOT("Reboot"),
        DRAIN("Drain"),
        RELOAD("Reload"),
        RESTART("Restart"),
        DAEMON_RELOAD("DaemonReload"),
        SPECIAL("Special"),
        NONE("None");

        private final String apiName;

        Type(String apiName) {
            this.apiName = apiName;
        }

        public String apiName() {
            return apiName;
        }

        public static Type ofApiName(String name) {
            for (Type t : values()) {
                if (t.apiName.equals(name)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown node disruption action type: " + name);
        }
    }

    public DisruptionAction {
        Objects.requireNonNull(type, "type");
        boolean needsService = type == Type.RELOAD || type == Type.RESTART;
        if (needsService == (service == null || service.isEmpty())) {
            throw new IllegalArgumentException(
                    type.apiName() + (needsService ? " needs a service name" : " takes no service name"));
        }
    }

    public static DisruptionAction reboot() {
        return new DisruptionAction(Type.REBOOT, null);
    }

    public static DisruptionAction drain() {
        return new DisruptionAction(Type.DRAIN, null);
    }

    public static DisruptionAction none() {
        return new DisruptionAction(Type.NONE, null);
    }

    public static DisruptionAction special() {
        return new DisruptionAction(Type.SPECIAL, null);
    }

    public static DisruptionAction daemonReload() {
        return new DisruptionAction(Type.DAEMON_RELOAD, null);
    }

    public static DisruptionAction reload(String service) {
        return new DisruptionAction(Type.RELOAD, service);
    }

    public static DisruptionAction restart(String service) {
        return new DisruptionAction(Type.RESTART, service);
    }

    /** The API form, e.g. {@code {type: Reload, reload: {serviceName: crio.service}}}. */
    public Map<String, Object> toApi() {
        var out = new LinkedHashMap<String, Object>();
        out.put("type", type.apiName());
        if (type == Type.RELOAD) {
            out.put("reload", Map.of("serviceName", service));
        } else if (type == Type.RESTART) {
            out.put("restart", Map.of("serviceName", service));
        }
        return out;
    }

    /** Reads the API form (spec or status action). */
    public static DisruptionAction fromApi(Object raw) {
        if (!(raw instanceof Map<?, ?> m) || !(m.get("type") instanceof String name)) {
            throw new IllegalArgumentException("a node disruption action needs a type: " + raw);
        }
        Type type = Type.ofApiName(name);
        String service = null;
        if (type == Type.RELOAD || type == Type.RESTART) {
            Object holder = m.get(type == Type.RELOAD ? "reload" : "restart");
            if (holder instanceof Map<?, ?> h && h.get("serviceName") instanceof String s) {
                service = s;
            }
        }
        return new DisruptionAction(type, service);
    }

    @Override
    public String toString() {
        return service == null ? type.apiName() : type.apiName() + " " + service;
    }
}
