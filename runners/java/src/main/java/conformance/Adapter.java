package conformance;

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.*;

/**
 * The Java port's side of SPEC.md §3: JSON requests on stdin served one at a time on the main
 * thread, a response line each on stdout (callbacks while it runs), logs on stderr. Handles live
 * until shutdown. The runner validated each request against the schema: arguments are read as given.
 */
public final class Adapter {
    /** A client, and the store passed to it as store "host" (else null). */
    private record Client(Object client, Object hostStore) {}

    private final Map<String, Function<Map<String, Object>, Object>> ops = new TreeMap<>();
    private final Map<String, Client> clients = new HashMap<>();
    private final Map<String, Object> toolkits = new LinkedHashMap<>();
    /** What the library threw on a thread of its own that nobody caught; the next response carries it. */
    private final List<String> crashes = Collections.synchronizedList(new ArrayList<>());
    /** The port's warnings while a request is served (else null): its System.err lines starting "[toolnexus]". */
    private final AtomicReference<List<String>> warnings = new AtomicReference<>();

    public static void main(String[] argv) throws IOException, InterruptedException {
        PrintStream realErr = System.err;
        // Whatever the port (or a library under it) prints on System.out must not reach stdout.
        System.setOut(new PrintStream(realErr, true, StandardCharsets.UTF_8));
        Adapter adapter = new Adapter(realErr);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            Map<?, ?> req = Map.of();
            try {
                req = Json.MAPPER.readValue(line, Map.class);
            } catch (IOException e) {
                // reported below
            }
            if (!(req.get("id") instanceof Number id)) { // no response can name it: the runner sees none
                if (!line.isBlank()) System.err.println("adapter: skipping a line without a request id: " + line);
                continue;
            }
            // Results hold plain values only (Json.copy), so a response always encodes.
            Json.writeLine(adapter.handle(id.longValue(), String.valueOf(req.get("op")), req.get("args")));
            if ("shutdown".equals(req.get("op"))) break;
        }
        adapter.closeAll(2_000);
        System.exit(0); // MCP SDK and HTTP client threads must not keep the JVM alive
    }

    /** Installs the sinks of what the port emits beside its results, then the ops. */
    private Adapter(PrintStream realErr) {
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.err.println("adapter: uncaught exception in thread " + thread.getName() + ": " + e);
            crashes.add("uncaught exception in thread " + thread.getName() + ": " + e);
        });
        // Everything still reaches the real stderr, which the runner keeps.
        System.setErr(new PrintStream(realErr, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                super.println(line);
                List<String> w = warnings.get();
                if (w != null && line != null && line.startsWith("[toolnexus]")) w.add(line);
            }
        });
        ops.put("hello", a -> Json.obj("port", "java", "library", "toolnexus", "version", Port.version(),
                "runtime", "java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                "ops", new ArrayList<>(ops.keySet())));
        ops.put("client.create", this::clientCreate);
        ops.put("client.run", this::clientRun);
        ops.put("client.ask", a -> run(a, (c, tk) -> Port.call("LlmClient", c, "ask", a.get("prompt"), tk, a.get("id"))));
        ops.put("store.get", a -> {
            Object msgs = Port.call("LlmClient$ConversationStore", store(a), "get", a.getOrDefault("id", ""));
            return Json.obj("messages", msgs == null ? null : Json.copy(msgs));
        });
        ops.put("store.save", a -> {
            Port.call("LlmClient$ConversationStore", store(a), "save", a.get("id"), new ArrayList<>((List<?>) a.get("messages")));
            return Map.of();
        });
        ops.put("store.identity", a -> {
            Client c = lookup(clients, a.get("client"));
            return Map.of("same", c.hostStore() != null && Port.call("LlmClient", c.client(), "conversationStore") == c.hostStore());
        });
        ops.put("toolkit.create", this::toolkitCreate);
        ops.put("toolkit.close", a -> {
            Object tk = toolkits.remove(a.get("toolkit"));
            if (tk != null) Port.call("Toolkit", tk, "close");
            return Map.of();
        });
        ops.put("mcp.load", this::mcpLoad);
        // McpInventory is a record of plain values, {tools: {server: [ToolInfo]}, status}: the report as it is.
        ops.put("mcp.list", a -> {
            Object inv = noContext(a) ? Port.call("McpSource", null, "listMcpTools", mcpConfig(a))
                    : Port.call("McpSource", null, "listMcpTools", mcpConfig(a), cancelSignal(a));
            return inv == null ? Json.obj("tools", null, "status", null) : Json.copy(inv);
        });
        ops.put("toolkit.describe", a -> {
            Object tk = lookup(toolkits, a.get("toolkit"));
            List<?> tools = Port.call("Toolkit", tk, "tools") instanceof List<?> l ? l.stream().map(t -> Json.obj(
                    "name", Port.call("Tool", t, "name"), "description", Port.call("Tool", t, "description"),
                    "inputSchema", Port.call("Tool", t, "inputSchema"), "source", Port.call("Tool", t, "source"))).toList() : null;
            Object status = Port.call("Toolkit", tk, "mcpStatus");
            return Json.copy(Json.obj("tools", tools, "status", status));
        });
        // Toolkit.execute(name, args): args absent or null is null (the port's own Map.of() then).
        ops.put("tool.execute", a -> {
            Object res = Port.call("Toolkit", lookup(toolkits, a.get("toolkit")), "execute", a.get("name"), a.get("args"));
            Map<String, Object> out = Json.obj("output", Port.call("ToolResult", res, "output"), "isError", Port.call("ToolResult", res, "isError"));
            Object metadata = Port.call("ToolResult", res, "metadata");
            if (metadata != null) out.put("metadata", Json.copy(metadata));
            return out;
        });
        ops.put("adapters", a -> {
            Object tk = lookup(toolkits, a.get("toolkit"));
            return Json.copy(Json.obj("openai", Port.call("Toolkit", tk, "toOpenAI"),
                    "anthropic", Port.call("Toolkit", tk, "toAnthropic"), "gemini", Port.call("Toolkit", tk, "toGemini")));
        });
        ops.put("sanitize", a -> Json.obj("value", Port.call("Tool", null, "sanitize", a.get("value"))));
        ops.put("shutdown", a -> Map.of());
    }

    /** Serves one request with the port's warnings captured; never throws. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> handle(long id, String name, Object args) {
        Map<String, Object> resp = Json.obj("id", id, "ok", true);
        warnings.set(Collections.synchronizedList(new ArrayList<>()));
        try {
            var op = ops.get(name);
            if (op == null) throw AdapterException.unsupported("adapter: unknown op \"" + name + "\"");
            resp.put("result", op.apply(args instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of()));
        } catch (Throwable t) {
            resp.put("ok", false);
            resp.put("error", relay(t));
        }
        resp.put("warnings", new ArrayList<>(warnings.getAndSet(null)));
        synchronized (crashes) {
            if (!crashes.isEmpty()) resp.put("crashes", new ArrayList<>(crashes));
            crashes.clear();
        }
        return resp;
    }

    /** What the port threw as SPEC.md §3's {message, type, chain}; the runner judges it (runners/java/errors.json). */
    private static Map<String, Object> relay(Throwable t) {
        List<Map<String, Object>> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            // The adapter's own fault stays its own, also when it surfaced through the port (a stub's).
            if (c instanceof AdapterException a) return Json.obj("kind", a.kind, "message", a.getMessage());
            List<String> is = new ArrayList<>();
            for (Class<?> k = c.getClass().getSuperclass(); k != null && k != Throwable.class; k = k.getSuperclass()) is.add(k.getName());
            chain.add(Json.obj("type", c.getClass().getName(), "is", is, "message", Objects.requireNonNullElse(c.getMessage(), c.toString())));
        }
        t.printStackTrace(); // the runner shows stderr in failures
        return Json.obj("message", chain.get(0).get("message"), "type", t.getClass().getName(), "chain", chain);
    }

    /** Closes every toolkit, bounded: stdio MCP children must not outlive the adapter. */
    private void closeAll(long limitMs) throws InterruptedException {
        Thread.ofPlatform().daemon().start(() -> toolkits.values().forEach(tk -> {
            try { Port.call("Toolkit", tk, "close"); } catch (RuntimeException ignored) { } // best effort at exit
        })).join(limitMs);
    }

    private static <T> T lookup(Map<String, T> handles, Object name) {
        T v = handles.get(name);
        if (v == null) throw AdapterException.failed("adapter: unknown handle " + name);
        return v;
    }

    private Object clientCreate(Map<String, Object> a) {
        String handle = (String) a.get("handle");
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
                throw AdapterException.unsupported("adapter: httpTimeoutMs: a java.net.http.HttpClient has no request timeout of its own");
            }
            Port.set(opts, "httpClient", Host.recordingHttp(handle));
        }
        Object hostStore = "host".equals(a.get("store")) ? Port.make("LlmClient$InMemoryConversationStore") : null;
        if (hostStore != null) Port.set(opts, "store", hostStore);
        Object client = Port.call("LlmClient", null, "create", opts);
        if (client == null) throw AdapterException.failed("adapter: LlmClient.create returned null");
        clients.put(handle, new Client(client, hostStore));
        return Map.of();
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
        Client c = lookup(clients, a.get("client"));
        Object tk = a.containsKey("toolkit") ? lookup(toolkits, a.get("toolkit")) : null;
        Object empty = tk != null ? null : newToolkit(opts -> { });
        try {
            Object res = call.apply(c.client(), tk != null ? tk : empty);
            if (res == null) return Json.obj("text", null, "turns", null, "toolCalls", null, "calls", null);
            Object text = Port.get(res, "text");
            List<?> calls = Port.get(res, "toolCalls") instanceof List<?> l ? l : null;
            List<String> names = calls == null ? null : calls.stream().map(tc -> String.valueOf(Port.get(tc, "name"))).toList();
            return Json.obj("text", text == null ? null : text.toString(), "turns", Port.get(res, "turns"), "toolCalls", names,
                    "calls", calls == null ? null : calls.stream().map(Adapter::call).toList());
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

    private Object store(Map<String, Object> a) {
        Object store = Port.call("LlmClient", lookup(clients, a.get("client")).client(), "conversationStore");
        if (store == null) throw AdapterException.failed("adapter: conversationStore() returned null");
        return store;
    }

    /** The port's McpConfig value: the path string for {file}, the object for {inline}. */
    private static Object mcpConfig(Map<String, Object> a) {
        Map<?, ?> c = (Map<?, ?>) a.get("mcpConfig");
        return c.containsKey("file") ? c.get("file") : c.get("inline");
    }

    private static boolean limited(Map<String, Object> a) {
        return a.containsKey("cancelAfterMs") || a.containsKey("deadlineMs");
    }

    /** The caller's limits as the port's one handle, a CancelSignal true once either has passed (0: at once). */
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
        String handle = (String) a.get("handle");
        List<?> extra = (List<?>) a.get("extraTools");
        Object tk = newToolkit(opts -> {
            if (a.containsKey("mcpConfig")) Port.set(opts, "mcpConfig", mcpConfig(a));
            if (extra != null) Port.set(opts, "extraTools", new ArrayList<>(extra.stream().map(t -> extraTool(handle, (Map<?, ?>) t)).toList()));
            if (limited(a)) Port.set(opts, "cancelSignal", cancelSignal(a));
            if (Boolean.TRUE.equals(a.get("builtins"))) Port.set(opts, "builtins", Boolean.TRUE);
        });
        if (tk == null) return Json.obj("tools", null, "status", null); // no handle kept
        Object old = toolkits.put(handle, tk);
        if (old != null) Port.call("Toolkit", old, "close");
        return report(Port.call("Toolkit", tk, "tools"), Port.call("Toolkit", tk, "mcpStatus"));
    }

    /** An extraTools entry by its kind: host (the default), native (NativeTool.of) or http (HttpTool.of). */
    private static Object extraTool(String toolkit, Map<?, ?> t) {
        return switch (String.valueOf(t.get("kind"))) {
            case "native" -> Host.nativeTool(toolkit, t);
            case "http" -> httpTool(t);
            default -> Host.tool(toolkit, t);
        };
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

    /** McpSource.load(input, null, signal), or load(input) for {@code context: false}; closed before the answer. */
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
