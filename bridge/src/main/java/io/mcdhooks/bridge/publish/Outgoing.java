package io.mcdhooks.bridge.publish;

import java.time.Instant;

import io.mcdhooks.schemas.Message;

/** A message to publish, with its deterministic CloudEvents id and when it was observed. */
public record Outgoing(Message message, String id, Instant time) {
}
