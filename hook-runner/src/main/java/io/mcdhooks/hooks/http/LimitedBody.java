package io.mcdhooks.hooks.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.codec.BodyCodec;
import io.vertx.ext.web.codec.spi.BodyStream;

/**
 * A response body read into memory up to a limit: a hook's endpoint that answers with more (by
 * mistake, or to exhaust the runner's heap) fails the check, which is retried like any transient
 * error, instead of being buffered whole.
 */
final class LimitedBody implements BodyStream<Buffer> {

    private final int limit;
    private final Promise<Buffer> result = Promise.promise();
    private final Buffer body = Buffer.buffer();
    private Handler<Throwable> exceptionHandler;

    private LimitedBody(int limit) {
        this.limit = limit;
    }

    /** A codec whose bodies fail once they pass {@code limit} bytes. */
    static BodyCodec<Buffer> codec(int limit) {
        return () -> new LimitedBody(limit);
    }

    @Override
    public Future<Buffer> result() {
        return result.future();
    }

    @Override
    public void handle(Throwable failure) {
        result.tryFail(failure);
    }

    @Override
    public Future<Void> write(Buffer data) {
        if (body.length() + data.length() > limit) {
            IllegalStateException tooLarge =
                    new IllegalStateException("the hook's response is larger than " + limit + " bytes");
            result.tryFail(tooLarge);
            if (exceptionHandler != null) {
                exceptionHandler.handle(tooLarge);
            }
            return Future.failedFuture(tooLarge);
        }
        body.appendBuffer(data);
        return Future.succeededFuture();
    }

    @Override
    public Future<Void> end() {
        result.tryComplete(body);
        return Future.succeededFuture();
    }

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        this.exceptionHandler = handler;
        return this;
    }

    @Override
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
        return this;
    }

    @Override
    public boolean writeQueueFull() {
        return false;
    }

    @Override
    public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
        return this;
    }
}
