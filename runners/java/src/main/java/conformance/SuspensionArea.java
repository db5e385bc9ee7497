package conformance;

import java.util.*;
import java.util.function.Function;

/**
 * The suspension area (upstream SPEC §10): LlmClient.Options.waitFor calling back
 * suspension.waitFor, and Tool implementations whose execute calls back suspension.tool and
 * returns what the runner answered: a suspension (ToolResult.error(output, {pending: the port's
 * Request}), §10's documented shape, which ToolResult.pendingOf reads) or a plain result. The
 * port's Request and Answer are records that Jackson writes with their component names, nulls
 * left out, so they go out as Json.copy makes them and come in through their canonical constructors.
 */
final class SuspensionArea implements Kit.Area {
    static final String WAIT_FOR = "suspension.waitFor", TOOL = "suspension.tool";

    @Override public int order() { return 100; }

    @Override
    public void install(Kit kit) {
        kit.slots(WAIT_FOR, TOOL);
        kit.clientPart((handle, a, opts, kept) -> {
            if (Boolean.TRUE.equals(a.get("waitFor"))) Port.set(opts, "waitFor", waitFor(kit, handle));
        });
        // suspendingTools after the tools area's extraTools (as the reference adapter adds them)
        kit.toolkitPart((a, opts) -> {
            if (!(a.get("suspendingTools") instanceof List<?> suspending)) return;
            List<Object> tools = Port.get(opts, "extraTools") instanceof List<?> extra ? new ArrayList<>(extra) : new ArrayList<>();
            suspending.forEach(t -> tools.add(tool(kit, (String) a.get("handle"), (Map<?, ?>) t)));
            Port.set(opts, "extraTools", tools);
        });
    }

    /** The port's waitFor is a synchronous Function&lt;Request, Answer&gt;: the runner's Answer, or null as given. */
    private static Function<Object, Object> waitFor(Kit kit, String client) {
        return request -> {
            Object v = kit.host.slot(WAIT_FOR, Json.obj("client", client, "request", Json.copy(request))).get("value");
            if (v == null) return null;
            if (!(v instanceof Map<?, ?> m)) throw AdapterException.failed("adapter: " + WAIT_FOR + " answered " + v + ", not an Answer object");
            return Port.record("Answer", m);
        };
    }

    /** A suspendingTools entry as the port's Tool (source "custom"); ctx is null on a first call, as the port passes it. */
    private static Object tool(Kit kit, String toolkit, Map<?, ?> spec) {
        String name = (String) spec.get("name");
        return Port.implement("Tool", (method, args) -> switch (method) {
            case "name" -> name;
            case "description" -> spec.get("description");
            case "inputSchema" -> spec.get("inputSchema");
            case "source" -> "custom";
            case "execute" -> execute(kit, toolkit, name, args[0], args[1]);
            default -> Port.DEFAULT;
        });
    }

    private static Object execute(Kit kit, String toolkit, String name, Object input, Object ctx) {
        Map<String, Object> call = Json.obj("toolkit", toolkit, "name", name, "input", input);
        Object answer = ctx == null ? null : Port.call("ToolContext", ctx, "answer");
        if (answer != null) call.put("answer", Json.copy(answer));
        Object v = kit.host.slot(TOOL, call).get("value");
        if (!(v instanceof Map<?, ?> m)) throw AdapterException.failed("adapter: " + TOOL + " answered " + v + ", not an object");
        return result(m.get("output"), Boolean.TRUE.equals(m.get("isError")), m.get("pending"));
    }

    /**
     * {output, isError, pending?} as the port's ToolResult (its ok/error factories); with a pending
     * Request it is a suspension: isError and metadata {pending: the port's Request}.
     */
    static Object result(Object output, boolean isError, Object pending) {
        if (pending instanceof Map<?, ?> p) return Port.call("ToolResult", null, "error", output, Map.of("pending", Port.record("Request", p)));
        return Port.call("ToolResult", null, isError ? "error" : "ok", output);
    }
}
