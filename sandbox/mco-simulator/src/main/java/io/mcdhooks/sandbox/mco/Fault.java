package io.mcdhooks.sandbox.mco;

import java.time.Duration;
import java.util.Objects;

/** A fault injected into one node's simulated machine. Faults hold until cleared. */
public sealed interface Fault {

    /** Writing files or the OS fails: the MCD goes Degraded with this reason. */
    record ApplyFailure(String reason) implements Fault {
        public ApplyFailure {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The node reboots and does not come back: Ready stays Unknown, the MCD never resumes. */
    record NeverReturnFromReboot() implements Fault {}

    /** After the reboot the on-disk state does not match: event OnDiskStateValidationFailed. */
    record OnDiskValidationFailure(String detail) implements Fault {
        public OnDiskValidationFailure {
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** Evicted pods take this much longer (simulated time) to terminate. */
    record SlowDrain(Duration extra) implements Fault {
        public SlowDrain {
            if (extra.isNegative()) {
                throw new IllegalArgumentException("extra must not be negative");
            }
        }
    }
}
