package io.mcdhooks.bridge.publish;

import io.mcdhooks.schemas.Message;
import java.time.Instant;

/** A message to publish, with its deterministic CloudEvents id and when it was observed. */
public record Outgoing(Message message, String id, Instant time) {}
