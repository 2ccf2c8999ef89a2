package io.mcdhooks.bridge.lag;

/** How a hook keeps up with the gate requests, judged over a window as LinkedIn's Burrow does. Worst last. */
public enum LagState {
    /** Caught up, or committing as fast as requests come. */
    OK,
    /** Committing, but the lag grew over the whole window. */
    WARNING,
    /** Consumers are there, but the committed offset has not moved over the window while lag > 0. */
    STALLED,
    /** No consumer is there to commit (or there never was one), and requests wait. */
    STOPPED,
    /** The offsets could not be read. */
    ERROR;

    public LagState worse(LagState other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
