package io.mcdhooks.schemas;

/**
 * Gate ids are deterministic, so that the same gate observed twice (a restart, a resync) is one
 * gate: {@code <cluster>/<stage>/<node or pool>/<target config>}.
 */
public final class GateId {

    private GateId() {}

    public static String of(String cluster, Stage stage, String subject, String targetConfig) {
        return cluster + "/" + stage.wire() + "/" + subject + "/" + targetConfig;
    }
}
