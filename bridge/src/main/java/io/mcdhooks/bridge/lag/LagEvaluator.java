package io.mcdhooks.bridge.lag;

import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * Judges a hook's consumption from a window of samples, newest last, the way Burrow does: not by
 * a lag threshold, but by how the committed offset and the lag move.
 * <ul>
 * <li>ERROR: the newest sample could not be read;
 * <li>OK: no lag;
 * <li>STOPPED: lag and no consumer (a group without members commits nothing);
 * <li>STALLED: lag, and the committed offset did not move over the whole window;
 * <li>WARNING: the offset moved, but the lag grew from sample to sample over the whole window;
 * <li>OK otherwise.
 * </ul>
 * With a single sample only ERROR, OK and STOPPED can be told. Pure.
 */
public final class LagEvaluator {

    private LagEvaluator() {}

    public static LagStatus evaluate(String hook, List<LagSample> window) {
        if (window.isEmpty()) {
            return new LagStatus(hook, LagState.ERROR, 0, null, "no sample yet");
        }
        LagSample newest = window.get(window.size() - 1);
        if (newest.error() != null) {
            return new LagStatus(hook, LagState.ERROR, 0, since(window, s -> s.error() != null), newest.error());
        }
        long lag = newest.lag();
        if (lag == 0) {
            return new LagStatus(hook, LagState.OK, 0, since(window, s -> s.error() == null && s.lag() == 0), null);
        }
        if (!newest.membersActive()) {
            return new LagStatus(
                    hook,
                    LagState.STOPPED,
                    lag,
                    since(window, s -> s.error() == null && !s.membersActive() && s.lag() > 0),
                    "no consumer");
        }
        if (window.size() < 2) {
            return new LagStatus(hook, LagState.OK, lag, newest.at(), null);
        }
        LagSample oldest = window.get(0);
        if (window.stream().allMatch(s -> s.error() == null && s.committed() == newest.committed() && s.lag() > 0)) {
            return new LagStatus(hook, LagState.STALLED, lag, oldest.at(), null);
        }
        boolean growing = newest.lag() > oldest.lag();
        for (int i = 1; i < window.size() && growing; i++) {
            growing = window.get(i).error() == null
                    && window.get(i).lag() >= window.get(i - 1).lag();
        }
        if (growing) {
            return new LagStatus(hook, LagState.WARNING, lag, oldest.at(), null);
        }
        return new LagStatus(hook, LagState.OK, lag, null, null);
    }

    /** The time of the oldest sample of the newest unbroken run that matches. */
    private static Instant since(List<LagSample> window, Predicate<LagSample> match) {
        Instant since = null;
        for (int i = window.size() - 1; i >= 0 && match.test(window.get(i)); i--) {
            since = window.get(i).at();
        }
        return since;
    }
}
