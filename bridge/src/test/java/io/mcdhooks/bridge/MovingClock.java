package io.mcdhooks.bridge;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until a test moves it. Thread-safe. */
public final class MovingClock extends Clock {

    private volatile Instant now;

    public MovingClock(Instant start) {
        this.now = start;
    }

    public void set(Instant at) {
        now = at;
    }

    public void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
