package io.mcdhooks.bridge.hooks;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Registers a hook with the gatekeeper: which gates it takes part in, how long they wait for it,
 * and what its silence or failure does. Cluster-scoped (it does not implement {@code Namespaced}),
 * like the pools it gates. The CRD is generated from this class by fabric8's CRD generator.
 */
@Group(UpdateHook.GROUP)
@Version(UpdateHook.VERSION)
@Kind("UpdateHook")
@Plural("updatehooks")
@ShortNames("uh")
public class UpdateHook extends CustomResource<UpdateHookSpec, UpdateHookStatus> {

    public static final String GROUP = "mcdhooks.io";
    public static final String VERSION = "v1alpha1";

    private static final long serialVersionUID = 1L;

    @Override
    protected UpdateHookSpec initSpec() {
        return new UpdateHookSpec();
    }

    @Override
    protected UpdateHookStatus initStatus() {
        return new UpdateHookStatus();
    }
}
