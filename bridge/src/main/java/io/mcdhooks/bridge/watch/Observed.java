package io.mcdhooks.bridge.watch;

import io.mcdhooks.schemas.Transition;

/**
 * A transition the classifier found.
 *
 * @param target        the node's or pool's target (desired config, with the image in image mode)
 * @param late          it happened while the bridge was not looking (start, restart, a missed
 *                      watch event) and was derived from state afterwards
 * @param discriminator what tells repeated transitions of one kind apart within one target:
 *                      the degraded reason, the pool generation of a pause; {@code ""} otherwise
 */
public record Observed(Transition transition, String target, boolean late, String discriminator) {

    public Observed {
        discriminator = discriminator == null ? "" : discriminator;
    }
}
