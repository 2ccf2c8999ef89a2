package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.examples.KernelModuleReadinessHook;
import io.mcdhooks.hooks.examples.NodeSelfCheckHook;
import io.mcdhooks.hooks.exec.ExecHook;
import io.mcdhooks.hooks.http.HttpHook;
import io.mcdhooks.hooks.kmod.RegistryKernelModuleHook;
import io.mcdhooks.schemas.settings.ConfigException;
import io.vertx.core.Vertx;

/** The hooks {@link Main} hosts from configuration alone ({@code MCDHOOKS_HOOK_KIND}). */
final class BuiltInHooks {

    private BuiltInHooks() {}

    static Hook create(Vertx vertx, HookRunnerConfig config) {
        BuiltInHookConfig settings = config.builtInHook();
        if (settings instanceof BuiltInHookConfig.Exec exec) {
            return new ExecHook(config.hookName(), config.selector(), exec.command(), exec.recheckAfter());
        }
        if (settings instanceof BuiltInHookConfig.Http http) {
            return new HttpHook(
                    vertx,
                    config.hookName(),
                    config.selector(),
                    http.url(),
                    http.caFile(),
                    config.policy().checkTimeout());
        }
        if (settings instanceof BuiltInHookConfig.KernelModulesFromRegistry kmod) {
            try {
                return RegistryKernelModuleHook.create(config.selector(), kmod.settings());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
        }
        if (settings instanceof BuiltInHookConfig.KernelModules kmod) {
            return new KernelModuleReadinessHook(
                    vertx, config.selector(), kmod.catalog(), kmod.modules(), kmod.recheckAfter());
        }
        if (settings instanceof BuiltInHookConfig.SelfCheck self) {
            return new NodeSelfCheckHook(
                    vertx, config.hookName(), config.selector(), self.command(), self.url(), self.recheckAfter());
        }
        throw new ConfigException(HookRunnerConfig.HOOK_KIND.name() + " is required to run a built-in hook: expected "
                + HookRunnerConfig.HOOK_KIND.grammar().accepted());
    }
}
