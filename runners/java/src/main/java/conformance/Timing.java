package conformance;

/**
 * The caller's cancellation for one op: {@code cancelAfterMs} (a cancel that fires that many ms
 * after the call starts) and/or {@code deadlineMs}. The Java port polls a
 * {@code McpSource.CancelSignal}; {@link #cancelled()} is what the signal answers. It remembers
 * which limit fired first, so the error kind can say "cancelled" or "deadline".
 */
final class Timing {
    private final Long cancelAfterMs;
    private final Long deadlineMs;
    private final long startNanos = System.nanoTime();
    private volatile String fired; // Errors.CANCELLED | Errors.DEADLINE, once a limit has passed

    Timing(Long cancelAfterMs, Long deadlineMs) {
        this.cancelAfterMs = cancelAfterMs;
        this.deadlineMs = deadlineMs;
    }

    /** Whether any limit was asked for. */
    boolean set() {
        return cancelAfterMs != null || deadlineMs != null;
    }

    /** True once a limit has passed; the earliest limit that passed is the one that fired. */
    boolean cancelled() {
        if (fired != null) return true;
        long elapsedMs = (System.nanoTime() - startNanos) / 1_000_000L;
        String which = null;
        long at = Long.MAX_VALUE;
        if (cancelAfterMs != null && elapsedMs >= cancelAfterMs && cancelAfterMs < at) {
            which = Errors.CANCELLED;
            at = cancelAfterMs;
        }
        if (deadlineMs != null && elapsedMs >= deadlineMs && deadlineMs < at) {
            which = Errors.DEADLINE;
        }
        if (which == null) return false;
        synchronized (this) {
            if (fired == null) fired = which;
        }
        return true;
    }
}
