package io.mcdhooks.hooks.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.codec.spi.BodyStream;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A hook's response is read up to a limit, and only from an https:// URL. */
class LimitedBodyTest {

    @Test
    void aBodyUpToTheLimitIsReadAndOneBeyondItFails() throws Exception {
        BodyStream<Buffer> fits = LimitedBody.codec(8).stream();
        fits.write(Buffer.buffer("1234"));
        fits.write(Buffer.buffer("5678"));
        fits.end();
        assertThat(fits.result().await().toString()).isEqualTo("12345678");

        BodyStream<Buffer> tooLarge = LimitedBody.codec(8).stream();
        tooLarge.write(Buffer.buffer("1234"));
        assertThat(tooLarge.write(Buffer.buffer("56789")).failed()).isTrue();
        tooLarge.end();
        assertThat(tooLarge.result().failed()).isTrue();
        assertThat(tooLarge.result().cause()).hasMessage("the hook's response is larger than 8 bytes");
    }

    @Test
    void anHttpUrlIsRefused() {
        Vertx vertx = Vertx.vertx();
        try {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new HttpHook(
                            vertx,
                            "h",
                            GateSelector.stages(Stage.PRE_UPDATE),
                            URI.create("http://hook.example/check"),
                            null,
                            Duration.ofSeconds(5)))
                    .withMessage("a hook's URL must be https://, not http://hook.example/check");
        } finally {
            vertx.close().await();
        }
    }
}
