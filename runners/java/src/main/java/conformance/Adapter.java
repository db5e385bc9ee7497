package conformance;

import java.util.*;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The ops of SPEC.md §3, served one at a time on the main thread; handles (clients, toolkits)
 * live until shutdown. The runner validated each request against the schema, so arguments are
 * read as given.
 */
final class Adapter {
    /** A client, and the store passed to it as store "host" (else null). */
    private record Client(Object client, Object hostStore) {}

    private final Map<String, Function<Map<String, Object>, Object>> ops = new TreeMap<>();
    private final Map<String, Client> clients = new HashMap<>();
    private final Map<String, Object> toolkits = new LinkedHashMap<>();
    /** What the library threw on a thread of its own that nobody caught; the next response carries it. */
    private final List<String> crashes = Collections.synchronizedList(new ArrayList<>());

    Adapter() {
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.err.println("adapter: uncaught exception in thread " + thread.getName() + ": " + e);
            crashes.add("uncaught exception in thread " + thread.getName() + ": " + e);
        });
        ops.put("hello", a -> Json.obj("port", "java", "library", "toolnexus", "version", Port.version(),
                "runtime", "java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                "ops", new ArrayList<>(ops.keySet())));
        ops.put("client.create", this::clientCreate);
        ops.put("client.run", this::clientRun);
        ops.put("client.ask", a -> run(a, (c, tk) -> Port.call("LlmClient", c, "ask", arg(a, "prompt"), tk, arg(a, "id"))));
        ops.put("store.get", a -> {
            Object msgs = Port.call("LlmClient$ConversationStore", store(a), "get", a.getOrDefault("id", ""));
            return Json.obj("messages", msgs == null ? null : Json.copy(msgs));
        });
        ops.put("store.save", a -> {
            List<?> msgs = arg(a, "messages");
            Port.call("LlmClient$ConversationStore", store(a), "save", arg(a, "id"), new ArrayList<>(msgs));
            return Map.of();
        });
        ops.put("store.identity", a -> {
            Client c = lookup(clients, arg(a, "client"));
            return Map.of("same", c.hostStore() != null && Port.call("LlmClient", c.client(), "conversationStore") == c.hostStore());
        });
        ops.put("toolkit.create", this::toolkitCreate);
        ops.put("toolkit.close", a -> {
            Object tk = toolkits.remove(arg(a, "toolkit"));
            if (tk != null) Port.call("Toolkit", tk, "close");
            return Map.of();
        });
        ops.put("mcp.load", this::mcpLoad);
        // McpInventory is a record of plain values: {tools: {server: [ToolInfo]}, status}, as reported.
        ops.put("mcp.list", a -> {
            Object inv = noContext(a) ? Port.call("McpSource", null, "listMcpTools", mcpConfig(a))
                    : Port.call("McpSource", null, "listMcpTools", mcpConfig(a), cancelSignal(a));
            return inv == null ? Json.obj("tools", null, "status", null) : Json.copy(inv);
        });
        ops.put("shutdown", a -> Map.of());
    }

    /** Serves one request with the port's warnings captured; never throws. */
    @SuppressWarnings("unchecked")
    Map<String, Object> handle(long id, String name, Object args) {
        Map<String, Object> resp = Json.obj("id", id);
        Warnings.begin();
        try {
            var op = ops.get(name);
            if (op == null) throw AdapterException.unsupported("adapter: unknown op \"" + name + "\"");
            Object result = op.apply(args instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
            resp.put("ok", true);
            resp.put("result", result);
        } catch (Throwable t) {
            resp.put("ok", false);
            resp.put("error", Errors.relay(t));
        }
        resp.put("warnings", Warnings.end());
        synchronized (crashes) {
            if (!crashes.isEmpty()) resp.put("crashes", new ArrayList<>(crashes));
            crashes.clear();
        }
        return resp;
    }

    /** Closes every toolkit, bounded: stdio MCP children must not outlive the adapter. */
    void closeAll(long limitMs) throws InterruptedException {
        Thread.ofPlatform().daemon().start(() -> toolkits.values().forEach(tk -> {
            try {
                Port.call("Toolkit", tk, "close");
            } catch (RuntimeException ignored) {
                // best effort at exit
            }
        })).join(limitMs);
    }

    /** An argument, of the type the schema guarantees. */
    @SuppressWarnings("unchecked")
    private static <T> T arg(Map<String, Object> a, String k) {
        return (T) a.get(k);
    }

    private static <T> T lookup(Map<String, T> handles, String name) {
        T v = handles.get(name);
        if (v == null) throw AdapterException.failed("adapter: unknown handle " + name);
        return v;
    }

    // ------------------------------------------------------------------ client

    private Object clientCreate(Map<String, Object> a) {
        String handle = arg(a, "handle");
        Object opts = Port.make("LlmClient$Options");
        for (String k : List.of("baseUrl", "style", "model", "apiKey", "systemPrompt", "maxTurns", "requestParams")) {
            if (a.containsKey(k)) Port.set(opts, k, a.get(k) instanceof Number n ? (Object) n.intValue() : a.get(k));
        }
        if (a.containsKey("bodyTransform")) Port.set(opts, "bodyTransform", Host.bodyTransform(handle));
        if (a.containsKey("beforeLLM")) {
            Object hooks = Port.make("LlmClient$Hooks");
            Port.set(hooks, "beforeLLM", Host.beforeLLM(handle));
            Port.set(opts, "hooks", hooks);
        }
        if ("recording".equals(a.get("httpClient"))) {
            if (a.containsKey("httpTimeoutMs")) {
                throw AdapterException.unsupported("adapter: a java.net.http.HttpClient has no request timeout of its own"
                        + " (each request carries one), so no httpTimeoutMs");
            }
            Port.set(opts, "httpClient", new Host.RecordingHttp(handle));
        }
        Object hostStore = "host".equals(a.get("store")) ? Port.make("LlmClient$InMemoryConversationStore") : null;
        if (hostStore != null) Port.set(opts, "store", hostStore);
        Object client = Port.call("LlmClient", null, "create", opts);
        if (client == null) throw AdapterException.failed("adapter: LlmClient.create returned null");
        clients.put(handle, new Client(client, hostStore));
        return Map.of();
    }

    private Object clientRun(Map<String, Object> a) {
        String prompt = arg(a, "prompt");
        List<?> history = arg(a, "history");
        if (!Boolean.TRUE.equals(a.get("stream"))) {
            // A fresh mutable history: the port appends to it.
            return run(a, (c, tk) -> history == null ? Port.call("LlmClient", c, "run", prompt, tk)
                    : Port.call("LlmClient", c, "run", prompt, tk, new ArrayList<>(history)));
        }
        if (history != null) throw AdapterException.unsupported("adapter: the Java port's stream takes a conversation id, not a history");
        return run(a, (c, tk) -> {
            // The callback form returns the final result; the DONE event's is the fallback.
            Object[] done = new Object[1];
            Consumer<Object> onEvent = ev -> {
                if ("DONE".equals(String.valueOf(Port.get(ev, "type")))) done[0] = Port.get(ev, "result");
            };
            Object res = Port.call("LlmClient", c, "stream", prompt, tk, onEvent);
            return res != null ? res : done[0];
        });
    }

    /**
     * Runs with the handles resolved and reports what the port returned, nothing invented. With
     * no toolkit named it passes an empty one (builtins off), closed after: the Java API needs one.
     */
    private Object run(Map<String, Object> a, BiFunction<Object, Object, Object> call) {
        Client c = lookup(clients, arg(a, "client"));
        Object tk = a.containsKey("toolkit") ? lookup(toolkits, arg(a, "toolkit")) : null;
        Object empty = tk != null ? null : newToolkit(opts -> { });
        try {
            Object res = call.apply(c.client(), tk != null ? tk : empty);
            if (res == null) return Json.obj("text", null, "turns", null, "toolCalls", null);
            Object text = Port.get(res, "text");
            List<String> names = Port.get(res, "toolCalls") instanceof List<?> calls
                    ? calls.stream().map(tc -> String.valueOf(Port.get(tc, "name"))).toList() : null;
            return Json.obj("text", text == null ? null : text.toString(), "turns", Port.get(res, "turns"), "toolCalls", names);
        } finally {
            if (empty != null) Port.call("Toolkit", empty, "close");
        }
    }

    /** The client's store, through its accessor. */
    private Object store(Map<String, Object> a) {
        Object store = Port.call("LlmClient", lookup(clients, arg(a, "client")).client(), "conversationStore");
        if (store == null) throw AdapterException.failed("adapter: conversationStore() returned null");
        return store;
    }

    // ------------------------------------------------------------------ toolkit and MCP

    /** The port's McpConfig value: the path string for {file}, the object for {inline}. */
    private static Object mcpConfig(Map<String, Object> a) {
        Map<String, Object> c = arg(a, "mcpConfig");
        return c.containsKey("file") ? c.get("file") : c.get("inline");
    }

    private static boolean limited(Map<String, Object> a) {
        return a.containsKey("cancelAfterMs") || a.containsKey("deadlineMs");
    }

    /**
     * The caller's limits as the port's one cancellation handle, a McpSource.CancelSignal true
     * once cancelAfterMs or deadlineMs has passed (0: cancelled already when the port is called).
     */
    private static Object cancelSignal(Map<String, Object> a) {
        long start = System.nanoTime();
        long limit = Math.min(((Number) a.getOrDefault("cancelAfterMs", Long.MAX_VALUE)).longValue(),
                ((Number) a.getOrDefault("deadlineMs", Long.MAX_VALUE)).longValue());
        return Port.implement("McpSource$CancelSignal", (method, args) -> method.equals("cancelled")
                ? (System.nanoTime() - start) / 1_000_000L >= limit : Port.DEFAULT);
    }

    /** {@code context: false}: the entry point without a handle, which can take no limits. */
    private static boolean noContext(Map<String, Object> a) {
        if (!Boolean.FALSE.equals(a.get("context"))) return false;
        if (limited(a)) throw AdapterException.unsupported("adapter: the port's no-context entry point takes no cancel signal, so no limits");
        return true;
    }

    /** Toolkit.create with builtins off and the options {@code set} gives. */
    private static Object newToolkit(Consumer<Object> set) {
        Object opts = Port.make("Toolkit$Options");
        Port.set(opts, "builtins", Boolean.FALSE);
        set.accept(opts);
        return Port.call("Toolkit", null, "create", opts);
    }

    private Object toolkitCreate(Map<String, Object> a) {
        String handle = arg(a, "handle");
        List<Map<?, ?>> extra = arg(a, "extraTools");
        Object tk = newToolkit(opts -> {
            if (a.containsKey("mcpConfig")) Port.set(opts, "mcpConfig", mcpConfig(a));
            if (extra != null) Port.set(opts, "extraTools", new ArrayList<>(extra.stream().map(t -> Host.tool(handle, t)).toList()));
            if (limited(a)) Port.set(opts, "cancelSignal", cancelSignal(a));
        });
        if (tk == null) return Json.obj("tools", null, "status", null); // no handle kept
        Object old = toolkits.put(handle, tk);
        if (old != null) Port.call("Toolkit", old, "close");
        return report(Port.call("Toolkit", tk, "tools"), Port.call("Toolkit", tk, "mcpStatus"));
    }

    /**
     * McpSource.load(input, null, signal), the cancellation-aware entry point (its signal never
     * fires without a limit); {@code context: false} is load(input). Closed before the answer.
     */
    private Object mcpLoad(Map<String, Object> a) {
        Object src = noContext(a) ? Port.call("McpSource", null, "load", mcpConfig(a))
                : Port.call("McpSource", null, "load", mcpConfig(a), null, cancelSignal(a));
        if (src == null) return Json.obj("tools", null, "status", null);
        try {
            return report(Port.call("McpSource", src, "tools"), Port.call("McpSource", src, "status"));
        } finally {
            Port.call("McpSource", src, "close");
        }
    }

    /** {tools: the tools' final names, status}; a null the port gave stays null. */
    private static Map<String, Object> report(Object tools, Object status) {
        List<?> names = tools instanceof List<?> l ? l.stream().map(t -> String.valueOf(Port.call("Tool", t, "name"))).toList() : null;
        return Json.obj("tools", names, "status", status == null ? null : Json.copy(status));
    }
}
