package conformance;

import java.util.Map;

/** The caller's cancelAfterMs and deadlineMs as the port's one cancellation handle (SPEC.md §3). */
final class KitLimits {
    private KitLimits() {}

    static boolean limited(Map<String, Object> a) {
        return a.containsKey("cancelAfterMs") || a.containsKey("deadlineMs");
    }

    /**
     * A McpSource.CancelSignal true once either limit has passed (0: already at the call, never
     * raced by a timer); the port has no deadline type, so both surface as its cancellation.
     */
    static Object cancelSignal(Map<String, Object> a) {
        long start = System.nanoTime();
        long limit = Math.min(((Number) a.getOrDefault("cancelAfterMs", Long.MAX_VALUE)).longValue(),
                ((Number) a.getOrDefault("deadlineMs", Long.MAX_VALUE)).longValue());
        return Port.implement("McpSource$CancelSignal", (method, args) -> method.equals("cancelled")
                ? (System.nanoTime() - start) / 1_000_000L >= limit : Port.DEFAULT);
    }
}
