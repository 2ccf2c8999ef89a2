package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.kmod.RegistryModuleSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The settings of each kind of hook the runner's {@code Main} can host without Java code. */
public sealed interface BuiltInHookConfig {

    /** Runs {@code command} with {@code /bin/sh -c}; see the hook author's guide for the protocol. */
    record Exec(String command, Duration recheckAfter) implements BuiltInHookConfig {}

    /** POSTs the request as a structured-mode CloudEvent to {@code url}. */
    record Http(URI url, Path caFile) implements BuiltInHookConfig {}

    /** Kernel-module readiness from the OS image and module images in their registries (the default kmod source). */
    record KernelModulesFromRegistry(RegistryModuleSettings settings) implements BuiltInHookConfig {}

    /** Kernel-module readiness against a catalog (a file path or an http(s) URL): the offline fallback. */
    record KernelModules(String catalog, List<String> modules, Duration recheckAfter) implements BuiltInHookConfig {
        public KernelModules {
            modules = List.copyOf(modules);
        }
    }

    /** Node self-check after an update: exactly one of a command or an http(s) URL. */
    record SelfCheck(String command, URI url, Duration recheckAfter) implements BuiltInHookConfig {}
}
