package io.mcdhooks.sandbox.bench;

import java.util.Locale;

/** Row 6's lines: the rollouts' times side by side, what the hooks add, and where it goes. */
final class RolloutRows {

    /** The target of 6b: hooks that pass at once with the admission policy cost at most this. */
    static final double TARGET_PERCENT = 2;

    private RolloutRows() {}

    static void add(Report report, RolloutOverhead.Result r, int workers, int hooks, double scale) {
        String setting = workers + " workers, maxUnavailable 10%, MCO simulated at " + (int) scale
                + "×, MachineConfig applied → pool updated";
        report.add(Row.value("6", "rollout time, stock", setting, r.stockSeconds(), "s", null, null, null));
        report.add(Row.value(
                "6a",
                "rollout time, " + hooks + " passing hooks",
                "same, with bridge, gatekeeper, the admission policy and " + hooks + " pre- and post-update hooks",
                r.hookedSeconds(),
                "s",
                null,
                null,
                null));
        double added = percent(r.hooked(), r.stock());
        report.add(Row.value(
                "6b",
                "added rollout time",
                "6a / 6 − 1",
                added,
                "%",
                "≤ " + (int) TARGET_PERCENT + " %",
                added <= TARGET_PERCENT,
                null));
        report.add(Row.value(
                "6c",
                "MCO's update slots in use, stock",
                "node-seconds assigned → done / (maxUnavailable × first assignment → last done)",
                r.stock().occupancy() * 100,
                "%",
                null,
                null,
                null));
        report.add(Row.value(
                "6d",
                "MCO's update slots in use, " + hooks + " hooks",
                "same, to released",
                r.hooked().occupancy() * 100,
                "%",
                null,
                null,
                null));
        phase(report, "6e", "assigned → drained, stock", r.stock(), RolloutTrace.Step.DRAINED);
        phase(report, "6f", "assigned → drained, " + hooks + " hooks", r.hooked(), RolloutTrace.Step.DRAINED);
        phase(report, "6g", "rebooting → uncordoned, stock", r.stock(), RolloutTrace.Step.UNCORDONED);
        phase(
                report,
                "6h",
                "rebooting → uncordoned (released), " + hooks + " hooks",
                r.hooked(),
                RolloutTrace.Step.UNCORDONED);
        phase(report, "6i", "uncordoned → done, stock", r.stock(), RolloutTrace.Step.DONE);
        phase(
                report,
                "6j",
                "released → done, " + hooks + " hooks (the drain controller's retries)",
                r.hooked(),
                RolloutTrace.Step.DONE);
        String slow = String.format(
                Locale.ROOT,
                "same as 6a, hooks answering after %d s simulated",
                RolloutOverhead.SLOW_ANSWER.toSeconds());
        report.add(Row.value("6k", "rollout time, slow hooks", slow, r.slow().seconds(), "s", null, null, null));
        report.add(Row.value(
                "6l",
                "added rollout time, slow hooks",
                "6k / 6 − 1",
                percent(r.slow(), r.stock()),
                "%",
                null,
                null,
                null));
        phase(report, "6m", "released → done, slow hooks", r.slow(), RolloutTrace.Step.DONE);
        if (r.fallback() != null) {
            report.add(Row.value(
                    "6n",
                    "rollout time, " + hooks + " hooks, no admission policy",
                    "same as 6a without the policy: pools paused while a post-update gate is open (batch pacing)",
                    r.fallback().seconds(),
                    "s",
                    null,
                    null,
                    null));
            report.add(Row.value(
                    "6o",
                    "added rollout time, no admission policy",
                    "6n / 6 − 1",
                    percent(r.fallback(), r.stock()),
                    "%",
                    null,
                    null,
                    null));
        }
    }

    private static double percent(RolloutOverhead.Run run, RolloutOverhead.Run stock) {
        return (run.seconds() / stock.seconds() - 1) * 100;
    }

    /** A step of a rollout (from the step before, per worker), as the harness's watch saw it. */
    private static void phase(
            Report report, String number, String name, RolloutOverhead.Run run, RolloutTrace.Step step) {
        Latency.Stats stats = run.phases().get(step);
        if (stats != null) {
            report.add(Row.duration(number, name, "per worker, seen by the harness's node watch", stats));
        }
    }
}
