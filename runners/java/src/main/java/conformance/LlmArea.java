package conformance;

import java.util.*;
import java.util.function.*;

/** client.create, client.run and client.ask; the bodyTransform and beforeLLM host functions. */
final class LlmArea implements Kit.Area {
    private Kit kit;

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        kit.slots("llm.bodyTransform", "llm.beforeLLM");
        kit.op("client.create", this::clientCreate);
        kit.op("client.run", this::clientRun);
        kit.op("client.ask", a -> run(a, (c, tk) -> Port.call("LlmClient", c, "ask", a.get("prompt"), tk, a.get("id"))));
    }

    /** LlmClient.create with the options given; the other areas' parts (httpClient, store) after this area's own. */
    private Object clientCreate(Map<String, Object> a) {
        String handle = (String) a.get("handle");
        Object opts = Port.make("LlmClient$Options");
        for (String k : List.of("baseUrl", "style", "model", "apiKey", "systemPrompt", "maxTurns", "requestParams")) {
            if (a.containsKey(k)) Port.set(opts, k, a.get(k) instanceof Number n ? (Object) n.intValue() : a.get(k));
        }
        if (a.containsKey("bodyTransform")) Port.set(opts, "bodyTransform", bodyTransform(handle));
        if (a.containsKey("beforeLLM")) {
            Object hooks = Port.make("LlmClient$Hooks");
            Port.set(hooks, "beforeLLM", beforeLLM(handle));
            Port.set(opts, "hooks", hooks);
        }
        Map<String, Object> kept = new HashMap<>();
        kit.applyClientParts(handle, a, opts, kept);
        Object client = Port.call("LlmClient", null, "create", opts);
        if (client == null) throw AdapterException.failed("adapter: LlmClient.create returned null");
        kit.clients.put(handle, new Kit.Client(client, kept));
        return Map.of();
    }

    /** LlmClient.Options.bodyTransform: the answer's body, or the very body received, edited to equal it. */
    private Function<Map<String, Object>, Object> bodyTransform(String client) {
        return body -> KitHost.value(kit.host.slot("llm.bodyTransform", Json.obj("client", client, "body", body)), body);
    }

    /** LlmClient.Hooks.beforeLLM: null, or an LLMOverride with the fields the runner gave. */
    private Function<Object, Object> beforeLLM(String client) {
        return e -> {
            Object v = kit.host.slot("llm.beforeLLM", Json.obj("client", client, "turn", Port.get(e, "turn"),
                    "messages", Port.get(e, "messages"), "tools", Port.get(e, "tools"))).get("value");
            if (!(v instanceof Map<?, ?> o)) return null;
            // Jackson's lists are mutable: the port appends to the transcript it is handed.
            return Port.make("LlmClient$LLMOverride", o.get("messages"), o.get("tools"));
        };
    }

    /** Run, run with a history (a fresh mutable copy: the port appends to it), or stream (its callback form). */
    private Object clientRun(Map<String, Object> a) {
        Object prompt = a.get("prompt");
        List<?> history = (List<?>) a.get("history");
        if (Boolean.TRUE.equals(a.get("stream"))) {
            if (history != null) throw AdapterException.unsupported("adapter: the Java port's stream takes a conversation id, not a history");
            Consumer<Object> ignore = ev -> { }; // the call returns the final result
            return run(a, (c, tk) -> Port.call("LlmClient", c, "stream", prompt, tk, ignore));
        }
        return run(a, (c, tk) -> history == null ? Port.call("LlmClient", c, "run", prompt, tk)
                : Port.call("LlmClient", c, "run", prompt, tk, new ArrayList<>(history)));
    }

    /** Reports what the port returned, nothing invented; no toolkit named: an empty one, as the Java API needs one. */
    private Object run(Map<String, Object> a, BiFunction<Object, Object, Object> call) {
        Kit.Client c = kit.clients.get(a.get("client"));
        Object tk = a.containsKey("toolkit") ? kit.toolkits.get(a.get("toolkit")) : null;
        Object empty = tk != null ? null : Kit.newToolkit(opts -> { });
        try {
            Object res = call.apply(c.client(), tk != null ? tk : empty);
            if (res == null) return Json.obj("text", null, "turns", null, "toolCalls", null, "calls", null);
            Object text = Port.get(res, "text");
            List<?> calls = Port.get(res, "toolCalls") instanceof List<?> l ? l : null;
            List<String> names = calls == null ? null : calls.stream().map(tc -> String.valueOf(Port.get(tc, "name"))).toList();
            Object usage = Port.get(res, "usage");
            return Json.obj("text", text == null ? null : text.toString(), "turns", Port.get(res, "turns"), "toolCalls", names,
                    "calls", calls == null ? null : calls.stream().map(LlmArea::call).toList(),
                    "status", Port.get(res, "status"), "limit", Port.get(res, "limit"), "toolCallCount", Port.get(res, "toolCallCount"),
                    "usage", usage == null ? null : Json.obj("promptTokens", Port.get(usage, "promptTokens"),
                            "completionTokens", Port.get(usage, "completionTokens"), "totalTokens", Port.get(usage, "totalTokens")));
        } finally {
            if (empty != null) Port.call("Toolkit", empty, "close");
        }
    }

    /** One RunResult.toolCalls entry (public fields name, args, output, isError, metadata); a null metadata is left out. */
    private static Map<String, Object> call(Object tc) {
        Map<String, Object> c = Json.obj("name", Port.get(tc, "name"), "args", Json.copy(Port.get(tc, "args")),
                "output", Port.get(tc, "output"), "isError", Port.get(tc, "isError"));
        Object metadata = Port.get(tc, "metadata");
        if (metadata != null) c.put("metadata", Json.copy(metadata));
        return c;
    }
}
