package io.mcdhooks.sandbox.registry;

/** Starts a registry, prints its process ids, and waits to be killed. */
public final class RegistryChild {

    private RegistryChild() {}

    public static void main(String[] args) throws Exception {
        ForkedRegistry registry = ForkedRegistry.start(ForkedRegistry.Options.basic("u", "p"));
        System.out.println("registry " + registry.processIds());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
