package io.mcdhooks.bridge.overrides;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An operator's request to release or block one gate by hand. Namespaced, in the bridge's own
 * namespace, so that who may create one is a Role of its own ({@code mcdhooks-gate-override}) and
 * not whoever may annotate a Node; the admission policy {@value #POLICY} makes the API server
 * vouch for {@code spec.requestedBy} and keeps the spec immutable. The gatekeeper judges each one
 * once and says in its status what it made of it. The CRD is generated from this class.
 */
@Group(GateOverride.GROUP)
@Version(GateOverride.VERSION)
@Kind("GateOverride")
@Plural("gateoverrides")
@ShortNames("gov")
public class GateOverride extends CustomResource<GateOverrideSpec, GateOverrideStatus> implements Namespaced {

    public static final String GROUP = "mcdhooks.io";
    public static final String VERSION = "v1alpha1";
    /** The ValidatingAdmissionPolicy (and its binding) that checks who asked. */
    public static final String POLICY = "mcdhooks-gate-override";

    private static final long serialVersionUID = 1L;

    @Override
    protected GateOverrideSpec initSpec() {
        return new GateOverrideSpec();
    }

    @Override
    protected GateOverrideStatus initStatus() {
        return null;
    }
}
