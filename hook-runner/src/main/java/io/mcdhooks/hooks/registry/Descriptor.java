package io.mcdhooks.hooks.registry;

/** What a manifest points at: a media type, a digest and a size; index entries also carry a platform. */
public record Descriptor(String mediaType, Digest digest, long size, Platform platform) {}
