package conformance;

import java.util.*;
import java.util.function.*;

/** client.create, client.run and client.ask; the bodyTransform and beforeLLM host functions. */
final class LlmArea implements Kit.Area {
    private Kit kit;

    /** First: its own client.create fields come before every part. */
    @Override public int order() { return 10; }

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        kit.slots("llm.bodyTransform", "llm.beforeLLM");
        kit.op("client.create", this::clientCreate);
        kit.op("client.run", this::clientRun);
        // no id: the three-argument ask with a null id, the port's stateless one-shot
        kit.op("client.ask", this::clientAsk);
    }

    /** ask(prompt, toolkit, id), or with onText its Consumer form, the deltas relayed. */
    private Object clientAsk(Map<String, Object> a) {
        if (!Boolean.TRUE.equals(a.get("onText"))) return run(a, (c, tk) -> Port.call("LlmClient", c, "ask", a.get("prompt"), tk, a.get("id")));
        List<Object> deltas = Collections.synchronizedList(new ArrayList<>());
        Consumer<String> onText = deltas::add;
        Object report = run(a, (c, tk) -> Port.call("LlmClient", c, "ask", a.get("prompt"), tk, a.get("id"), onText));
        if (report instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked") Map<String, Object> out = (Map<String, Object>) m;
            out.put("deltas", new ArrayList<>(deltas));
        }
        return report;
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

    /**
     * Run, run with a history (a fresh mutable copy: the port appends to it), or stream (its
     * callback form, with the conversation id when given). cancelAfterMs is the port's
     * CancelToken, cancelled by a timer; only run takes one.
     */
    private Object clientRun(Map<String, Object> a) {
        Object prompt = a.get("prompt");
        List<?> history = (List<?>) a.get("history");
        if (Boolean.TRUE.equals(a.get("stream"))) {
            if (history != null) throw AdapterException.unsupported("adapter: the Java port's stream takes a conversation id, not a history");
            if (a.containsKey("cancelAfterMs")) throw AdapterException.unsupported("adapter: the Java port's stream takes no CancelToken (only run and ask do)");
            List<Object> events = Collections.synchronizedList(new ArrayList<>());
            Consumer<Object> keep = ev -> events.add(event(ev)); // the call also returns the final result
            Object report = run(a, (c, tk) -> a.containsKey("id") ? Port.call("LlmClient", c, "stream", prompt, tk, keep, a.get("id"))
                    : Port.call("LlmClient", c, "stream", prompt, tk, keep));
            if (report instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked") Map<String, Object> out = (Map<String, Object>) m;
                out.put("events", new ArrayList<>(events));
            }
            return report;
        }
        if (a.get("cancelAfterMs") instanceof Number ms) {
            Object token = Port.make("LlmClient$CancelToken");
            Thread timer = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(Math.max(0, ms.longValue()));
                    Port.call("LlmClient$CancelToken", token, "cancel");
                } catch (InterruptedException done) {
                    // the run returned first
                }
            });
            try {
                return run(a, (c, tk) -> Port.call("LlmClient", c, "run", prompt, tk, history == null ? null : new ArrayList<>(history), token));
            } finally {
                timer.interrupt();
            }
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
            return report(call.apply(c.client(), tk != null ? tk : empty));
        } finally {
            if (empty != null) Port.call("Toolkit", empty, "close");
        }
    }

    /** A RunResult in the protocol's shape; a null result stays null throughout. */
    static Map<String, Object> report(Object res) {
        if (res == null) return Json.obj("text", null, "turns", null, "toolCalls", null, "calls", null);
        Object text = Port.get(res, "text");
        List<?> calls = Port.get(res, "toolCalls") instanceof List<?> l ? l : null;
        List<String> names = calls == null ? null : calls.stream().map(tc -> String.valueOf(Port.get(tc, "name"))).toList();
        Object usage = Port.get(res, "usage");
        Map<String, Object> out = Json.obj("text", text == null ? null : text.toString(), "turns", Port.get(res, "turns"), "toolCalls", names,
                "calls", calls == null ? null : calls.stream().map(LlmArea::call).toList(),
                "status", Port.get(res, "status"), "limit", Port.get(res, "limit"), "toolCallCount", Port.get(res, "toolCallCount"),
                "messages", Json.copy(Port.get(res, "messages")),
                "usage", usage == null ? null : Json.obj("promptTokens", Port.get(usage, "promptTokens"),
                        "completionTokens", Port.get(usage, "completionTokens"), "totalTokens", Port.get(usage, "totalTokens")));
        // the Request the run halted on (§10), as the port's Jackson writes it; absent when none
        Object pending = Port.get(res, "pending");
        if (pending != null) out.put("pending", Json.copy(pending));
        return out;
    }

    /** One StreamEvent with the fields its kind carries, its kind as the SPEC's type name (TOOL_CALL is tool_call). */
    private Map<String, Object> event(Object ev) {
        String type = String.valueOf(Port.get(ev, "type")).toLowerCase(java.util.Locale.ROOT);
        Map<String, Object> out = Json.obj("type", type);
        switch (type) {
            case "text" -> out.put("delta", Port.get(ev, "delta"));
            case "tool_call" -> { out.put("id", Port.get(ev, "id")); out.put("name", Port.get(ev, "name")); out.put("args", Json.copy(Port.get(ev, "args"))); }
            case "tool_result" -> { out.put("id", Port.get(ev, "id")); out.put("name", Port.get(ev, "name")); out.put("output", Port.get(ev, "output")); out.put("isError", Port.get(ev, "isError")); }
            case "usage" -> {
                Object u = Port.get(ev, "usage");
                out.put("usage", u == null ? null : Json.obj("promptTokens", Port.get(u, "promptTokens"),
                        "completionTokens", Port.get(u, "completionTokens"), "totalTokens", Port.get(u, "totalTokens")));
            }
            case "pending" -> out.put("request", Json.copy(Port.get(ev, "request")));
            case "done" -> out.put("result", report(Port.get(ev, "result")));
            default -> { }
        }
        return out;
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
