package conformance;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The hooks area: LlmClient.Hooks afterLLM, beforeTool and afterTool stubs calling back hooks.*
 * (upstream SPEC §8 Hooks; beforeLLM is the llm area's). Each relays the event's fields and
 * returns the runner's answer as the port's ToolOverride (a ToolResult through its ok factory).
 */
final class HooksArea implements Kit.Area {
    private Kit kit;

    @Override public int order() { return 70; }

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        kit.slots("hooks.afterLLM", "hooks.beforeTool", "hooks.afterTool");
        kit.clientPart((handle, a, opts, kept) -> {
            if (!a.containsKey("afterLLM") && !a.containsKey("beforeTool") && !a.containsKey("afterTool")) return;
            Object hooks = Port.get(opts, "hooks");
            if (hooks == null) {
                hooks = Port.make("LlmClient$Hooks");
                Port.set(opts, "hooks", hooks);
            }
            if (a.containsKey("afterLLM")) Port.set(hooks, "afterLLM", afterLLM(handle));
            if (a.containsKey("beforeTool")) Port.set(hooks, "beforeTool", beforeTool(handle));
            if (a.containsKey("afterTool")) Port.set(hooks, "afterTool", afterTool(handle));
        });
    }

    private Consumer<Object> afterLLM(String client) {
        return e -> kit.host.slot("hooks.afterLLM", Json.obj("client", client, "turn", Port.get(e, "turn"),
                "model", Port.get(e, "model"), "response", Json.copy(Port.get(e, "response"))));
    }

    private Function<Object, Object> beforeTool(String client) {
        return e -> {
            Object v = kit.host.slot("hooks.beforeTool", Json.obj("client", client, "name", Port.get(e, "name"),
                    "args", Json.copy(Port.get(e, "args")), "id", Port.get(e, "id"), "turn", Port.get(e, "turn"))).get("value");
            if (!(v instanceof Map<?, ?> o)) return null;
            Object result = toolResult(o.get("result"));
            return result != null ? Port.make("LlmClient$ToolOverride", null, result) : Port.make("LlmClient$ToolOverride", o.get("args"), null);
        };
    }

    private Function<Object, Object> afterTool(String client) {
        return e -> {
            Object r = Port.get(e, "result");
            Map<String, Object> result = Json.obj("output", Port.get(r, "output"), "isError", Port.get(r, "isError"));
            if (Port.get(r, "metadata") != null) result.put("metadata", Json.copy(Port.get(r, "metadata")));
            Object v = kit.host.slot("hooks.afterTool", Json.obj("client", client, "name", Port.get(e, "name"),
                    "args", Json.copy(Port.get(e, "args")), "id", Port.get(e, "id"), "turn", Port.get(e, "turn"), "result", result)).get("value");
            Object res = v instanceof Map<?, ?> o ? toolResult(o.get("result")) : null;
            return res == null ? null : Port.make("LlmClient$ToolOverride", null, res);
        };
    }

    /**
     * {output, isError} as the port's ToolResult, through its ok/error factories; with pending (a
     * guard-raised suspension, §10) the result carries metadata {pending: the port's Request}.
     */
    private static Object toolResult(Object v) {
        if (!(v instanceof Map<?, ?> m)) return null;
        return SuspensionArea.result(m.get("output"), Boolean.TRUE.equals(m.get("isError")), m.get("pending"));
    }
}
