package conformance;

import java.util.*;
import java.util.function.Function;

/** toolkit.create/close/describe, tool.execute, adapters, sanitize; the {@code tool} host function of extraTools. */
final class ToolsArea implements Kit.Area {
    private Kit kit;

    @Override public int order() { return 50; }

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        kit.slots("contract.tool");
        kit.op("toolkit.create", this::toolkitCreate);
        kit.op("toolkit.close", a -> {
            Object tk = kit.toolkits.remove(a.get("toolkit"));
            if (tk != null) Port.call("Toolkit", tk, "close");
            return Map.of();
        });
        kit.op("toolkit.describe", a -> {
            Object tk = kit.toolkits.get(a.get("toolkit"));
            List<?> tools = Port.call("Toolkit", tk, "tools") instanceof List<?> l ? l.stream().map(t -> Json.obj(
                    "name", Port.call("Tool", t, "name"), "description", Port.call("Tool", t, "description"),
                    "inputSchema", Port.call("Tool", t, "inputSchema"), "source", Port.call("Tool", t, "source"))).toList() : null;
            Object status = Port.call("Toolkit", tk, "mcpStatus");
            return Json.copy(Json.obj("tools", tools, "status", status));
        });
        // Toolkit.execute(name, args): args absent or null is null (the port's own Map.of() then).
        kit.op("tool.execute", a -> {
            Object res = Port.call("Toolkit", kit.toolkits.get(a.get("toolkit")), "execute", a.get("name"), a.get("args"));
            Map<String, Object> out = Json.obj("output", Port.call("ToolResult", res, "output"), "isError", Port.call("ToolResult", res, "isError"));
            Object metadata = Port.call("ToolResult", res, "metadata");
            if (metadata != null) out.put("metadata", Json.copy(metadata));
            return out;
        });
        kit.op("adapters", a -> {
            Object tk = kit.toolkits.get(a.get("toolkit"));
            return Json.copy(Json.obj("openai", Port.call("Toolkit", tk, "toOpenAI"),
                    "anthropic", Port.call("Toolkit", tk, "toAnthropic"), "gemini", Port.call("Toolkit", tk, "toGemini")));
        });
        kit.op("sanitize", a -> Json.obj("value", Port.call("Tool", null, "sanitize", a.get("value"))));
    }

    /** extraTools, then the other areas' parts (mcpConfig, skills, tools after these), the caller's limits and builtins. */
    private Object toolkitCreate(Map<String, Object> a) {
        String handle = (String) a.get("handle");
        List<?> extra = (List<?>) a.get("extraTools");
        Object tk = Kit.newToolkit(opts -> {
            if (extra != null) {
                List<Object> tools = new ArrayList<>();
                extra.forEach(t -> tools.add(extraTool(handle, (Map<?, ?>) t)));
                Port.set(opts, "extraTools", tools);
            }
            kit.applyToolkitParts(a, opts);
            if (KitLimits.limited(a)) Port.set(opts, "cancelSignal", KitLimits.cancelSignal(a));
            // builtins as given, a Map or a Boolean (absent: off, newToolkit's); builtinsDefault: none at all
            if (a.containsKey("builtins")) Port.set(opts, "builtins", a.get("builtins"));
            if (Boolean.TRUE.equals(a.get("builtinsDefault"))) Port.set(opts, "builtins", null);
        });
        if (tk == null) return Json.obj("tools", null, "status", null); // no handle kept
        Object old = kit.toolkits.put(handle, tk);
        if (old != null) Port.call("Toolkit", old, "close");
        return Kit.report(Port.call("Toolkit", tk, "tools"), Port.call("Toolkit", tk, "mcpStatus"));
    }

    /** An extraTools entry by its kind: host (the default), native (NativeTool.of) or http (HttpTool.of). */
    private Object extraTool(String toolkit, Map<?, ?> t) {
        return switch (String.valueOf(t.get("kind"))) {
            case "native" -> nativeTool(toolkit, t);
            case "http" -> httpTool(t);
            default -> hostTool(toolkit, t);
        };
    }

    /** A host tool (source "custom") whose execute calls back {@code tool}. */
    private Object hostTool(String toolkit, Map<?, ?> spec) {
        String name = (String) spec.get("name");
        return Port.implement("Tool", (method, args) -> switch (method) {
            case "name" -> name;
            case "description" -> spec.get("description");
            case "inputSchema" -> spec.get("inputSchema");
            case "source" -> "custom";
            case "execute" -> Port.call("ToolResult", null, "ok",
                    Objects.toString(kit.host.slot("contract.tool", Json.obj("toolkit", toolkit, "name", name, "input", args[0])).get("value"), null));
            default -> Port.DEFAULT;
        });
    }

    /**
     * A native tool: NativeTool.of(name, description, schema or null, Function), whose function calls
     * back {@code tool} and returns the answer's value as decoded (a String, or a Map, List, number...),
     * or for returns "result" ToolResult.ok/error(output, metadata); an ok: false answer throws.
     */
    private Object nativeTool(String toolkit, Map<?, ?> spec) {
        String name = (String) spec.get("name");
        boolean result = "result".equals(spec.get("returns"));
        Function<Map<String, Object>, Object> fn = args -> {
            Object v = kit.host.slot("contract.tool", Json.obj("toolkit", toolkit, "name", name, "input", args)).get("value");
            if (!result) return v;
            Map<?, ?> r = (Map<?, ?>) v;
            return Port.call("ToolResult", null, Boolean.TRUE.equals(r.get("isError")) ? "error" : "ok", r.get("output"), r.get("metadata"));
        };
        return Port.call("NativeTool", null, "of", name, spec.get("description"), spec.get("inputSchema"), fn);
    }

    /** HttpTool.of(Options) with only the fields given; timeoutMs is the port's timeout (ms, a Long). */
    private static Object httpTool(Map<?, ?> t) {
        Object opts = Port.make("HttpTool$Options");
        for (String k : List.of("name", "description", "method", "url", "headers", "query", "body", "inputSchema", "resultMode")) {
            if (t.containsKey(k)) Port.set(opts, k, t.get(k));
        }
        if (t.get("timeoutMs") instanceof Number n) Port.set(opts, "timeout", n.longValue());
        return Port.call("HttpTool", null, "of", opts);
    }
}
