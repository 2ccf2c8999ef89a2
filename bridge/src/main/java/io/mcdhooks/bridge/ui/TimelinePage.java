package io.mcdhooks.bridge.ui;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;

/**
 * The status page's timeline of the rollout: {@code /timeline.js} draws it (plain SVG, no build
 * step) from {@code /api/timeline}, the {@link RolloutObserver}'s history as {@link TimelineJson}.
 * Serve on the bridge's event loop, which owns the history.
 */
public final class TimelinePage {

    static final String SCRIPT_RESOURCE = "ui/timeline.js";

    private final RolloutObserver observer;
    private final Clock clock;
    private final Buffer script;

    public TimelinePage(RolloutObserver observer, Clock clock) {
        this.observer = observer;
        this.clock = clock;
        this.script = Buffer.buffer(read(SCRIPT_RESOURCE));
    }

    /** {@code GET /timeline.js}. */
    public void serveScript(HttpServerRequest request) {
        request.response()
                .putHeader("content-type", "text/javascript; charset=utf-8")
                .putHeader("cache-control", "no-store")
                .end(script);
    }

    /** {@code GET /api/timeline}. */
    public void serveTimeline(HttpServerRequest request) {
        request.response()
                .putHeader("content-type", "application/json")
                .putHeader("cache-control", "no-store")
                .end(TimelineJson.build(observer.history(), observer.current(), clock.instant())
                        .encode());
    }

    static byte[] read(String resource) {
        try (InputStream in = TimelinePage.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
