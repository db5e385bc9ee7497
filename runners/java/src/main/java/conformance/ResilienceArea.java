package conformance;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The resilience area: LlmClient.Options retries, retryBaseMs and timeoutMs as given, and an
 * onError stub calling back resilience.onError (upstream SPEC §8 Resilience). A run's cancel is
 * the llm area's (cancelAfterMs -> the port's CancelToken).
 */
final class ResilienceArea implements Kit.Area {
    private Kit kit;

    @Override public int order() { return 80; }

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        kit.slots("resilience.onError");
        kit.clientPart((handle, a, opts, kept) -> {
            if (a.get("retries") instanceof Number n) Port.set(opts, "retries", n.intValue());
            if (a.get("retryBaseMs") instanceof Number n) Port.set(opts, "retryBaseMs", n.intValue());
            if (a.get("timeoutMs") instanceof Number n) Port.set(opts, "timeoutMs", n.longValue());
            if (Boolean.TRUE.equals(a.get("onError"))) Port.set(opts, "onError", onError(handle));
        });
    }

    /** The port's ErrorInfo record as given (status 0 is its "no status"); the answer as its Tier. */
    private Function<Object, Object> onError(String client) {
        return info -> {
            Map<String, Object> args = Json.obj("client", client, "attempt", Port.get(info, "attempt"), "retryable", Port.get(info, "retryable"));
            if (Port.get(info, "status") instanceof Number s && s.intValue() != 0) args.put("status", s);
            if (Port.get(info, "error") instanceof Throwable t) args.put("error", String.valueOf(t));
            Object v = kit.host.slot("resilience.onError", args).get("value");
            return tier(String.valueOf(v));
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object tier(String name) {
        return Enum.valueOf((Class) Port.cls("LlmClient$Tier"), name.toUpperCase(Locale.ROOT));
    }
}
