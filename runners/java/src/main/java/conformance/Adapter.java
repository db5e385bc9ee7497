package conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Handles, dispatch and the ops of SPEC.md §3. Requests arrive one at a time and are served on
 * the main thread; handles (clients, toolkits) live until shutdown.
 */
final class Adapter {
    /** One parsed request line. */
    record Request(long id, String op, Object args) {}

    /** One op: raw args in, result object out. */
    @FunctionalInterface
    private interface Op {
        Object apply(Object args) throws Exception;
    }

    /** A client handle and what its hooks record. */
    private record ClientEntry(Object client, Recorder rec, Object hostStore) {}

    private final Map<String, Op> ops = new TreeMap<>();
    private final Map<String, ClientEntry> clients = new LinkedHashMap<>();
    private final Map<String, Object> toolkits = new LinkedHashMap<>();
    private Port port; // loaded on first use, so hello still answers when the port is absent
    private boolean currentConfigOp;

    /**
     * What the library threw on a thread of its own that nobody caught: the next response
     * carries it in "crashes" for the runner to judge; the adapter never swallows one.
     */
    private static final List<String> CRASHES = new ArrayList<>();

    static void installCrashHandler() {
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            String text = "uncaught exception in thread " + thread.getName() + ": " + e;
            System.err.println("adapter: " + text);
            synchronized (CRASHES) {
                CRASHES.add(text);
            }
        });
    }

    Adapter() {
        ops.put("hello", this::hello);
        ops.put("client.create", this::clientCreate);
        ops.put("client.run", this::clientRun);
        ops.put("client.ask", this::clientAsk);
        ops.put("store.get", this::storeGet);
        ops.put("store.save", this::storeSave);
        ops.put("store.identity", this::storeIdentity);
        ops.put("toolkit.create", this::toolkitCreate);
        ops.put("toolkit.close", this::toolkitClose);
        ops.put("mcp.load", this::mcpLoad);
        ops.put("mcp.list", this::mcpList);
        ops.put("shutdown", a -> Map.of());
    }

    // ------------------------------------------------------------------ protocol

    /** Parses a line; null (reported on stderr) when it has no usable id. */
    static Request parse(String line) {
        Object v;
        try {
            v = Json.parse(line);
        } catch (Exception e) {
            System.err.println("adapter: skipping malformed line: " + e.getMessage());
            return null;
        }
        if (!(v instanceof Map<?, ?> m) || !(m.get("id") instanceof Number n)
                || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() < 1) {
            System.err.println("adapter: skipping line without a valid id: " + line);
            return null;
        }
        Object op = m.get("op");
        return new Request(n.longValue(), op instanceof String s ? s : "", m.get("args"));
    }

    /** Serves one request with the port's stderr warnings captured; never throws. */
    Map<String, Object> handle(Request req) {
        Map<String, Object> resp = new LinkedHashMap<>();
        resp.put("id", req.id());
        Object result = null;
        Throwable error = null;
        currentConfigOp = false;
        Warnings.begin();
        try {
            Op op = ops.get(req.op());
            if (op == null) throw AdapterException.unsupported("adapter: unknown op \"" + req.op() + "\"");
            result = op.apply(req.args());
        } catch (Throwable t) {
            error = t;
        }
        List<String> warnings = Warnings.end();
        if (error == null) {
            resp.put("ok", true);
            resp.put("result", result == null ? Map.of() : result);
        } else {
            Throwable t = Errors.unwrap(error);
            if (t instanceof Port.PortThrew && t.getCause() != null) t = t.getCause();
            String kind = Errors.kind(t, currentConfigOp);
            if (Errors.FAILED.equals(kind) && !(t instanceof AdapterException)) {
                t.printStackTrace(); // the runner shows stderr in failures
            }
            Map<String, Object> err = new LinkedHashMap<>();
            err.put("kind", kind);
            err.put("message", Errors.message(t));
            String type = Errors.type(t);
            if (type != null) err.put("type", type);
            resp.put("ok", false);
            resp.put("error", err);
        }
        resp.put("warnings", warnings);
        synchronized (CRASHES) {
            if (!CRASHES.isEmpty()) {
                resp.put("crashes", new ArrayList<>(CRASHES));
                CRASHES.clear();
            }
        }
        return resp;
    }

    private Port port() {
        if (port == null) port = new Port();
        return port;
    }

    /** Closes every toolkit, bounded: stdio MCP children must not outlive the adapter. */
    void closeAll(long limitMs) {
        Thread t = new Thread(() -> {
            for (Object tk : toolkits.values()) {
                try {
                    port().closeToolkit(tk);
                } catch (RuntimeException ignored) {
                    // best effort at exit
                }
            }
            toolkits.clear();
        }, "adapter-close");
        t.setDaemon(true);
        t.start();
        try {
            t.join(limitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ hello

    private Object hello(Object raw) {
        new Args("hello", raw);
        String version;
        try {
            version = port().version();
        } catch (AdapterException e) {
            version = "not loaded: " + e.getMessage();
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("port", "java");
        r.put("library", "toolnexus");
        r.put("version", version);
        r.put("runtime", "java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        r.put("ops", new ArrayList<>(ops.keySet()));
        return r;
    }

    // ------------------------------------------------------------------ client

    private Object clientCreate(Object raw) {
        Args a = new Args("client.create", raw, "handle", "baseUrl", "style", "model", "apiKey", "systemPrompt",
                "maxTurns", "requestParams", "bodyTransform", "beforeLLM", "httpClient", "store");
        Port p = port();
        Recorder rec = new Recorder(p);
        Object opts = p.newClientOptions();
        Port.set(opts, "baseUrl", a.str("baseUrl"));
        Port.set(opts, "style", a.str("style"));
        Port.set(opts, "model", a.str("model"));
        Port.set(opts, "apiKey", a.str("apiKey"));
        if (a.has("systemPrompt")) Port.set(opts, "systemPrompt", a.str("systemPrompt"));
        if (a.has("maxTurns")) Port.set(opts, "maxTurns", a.optLong("maxTurns").intValue());
        if (a.has("requestParams")) Port.set(opts, "requestParams", a.optMap("requestParams"));
        Args bt = a.nested("bodyTransform", "delete", "set", "setNested", "appendToLastUser", "inPlace", "returnNull");
        if (bt != null) Port.set(opts, "bodyTransform", rec.bodyTransform(bt));
        Args bl = a.nested("beforeLLM", "setLastUserContent", "tools");
        if (bl != null) {
            Object hooks = p.newHooks();
            Port.set(hooks, "beforeLLM", rec.beforeLLM(bl));
            Port.set(opts, "hooks", hooks);
        }
        String http = a.has("httpClient") ? a.str("httpClient") : "default";
        switch (http) {
            case "default" -> { }
            case "recording" -> {
                rec.http = new CountingHttpClient();
                Port.set(opts, "httpClient", rec.http);
            }
            default -> throw AdapterException.unsupported("adapter: httpClient \"" + http + "\"");
        }
        Object hostStore = null;
        String store = a.has("store") ? a.str("store") : "default";
        switch (store) {
            case "default" -> { }
            case "host" -> {
                hostStore = p.newInMemoryStore();
                Port.set(opts, "store", hostStore);
            }
            default -> throw AdapterException.unsupported("adapter: store \"" + store + "\"");
        }
        Object client = p.createClient(opts);
        if (client == null) throw AdapterException.failed("adapter: LlmClient.create returned null");
        clients.put(a.str("handle"), new ClientEntry(client, rec, hostStore));
        return Map.of();
    }

    /** The body of client.run / client.ask with the client and toolkit resolved. */
    @FunctionalInterface
    private interface RunCall {
        Object run(Object client, Object toolkit);
    }

    private Object clientRun(Object raw) {
        Args a = new Args("client.run", raw, "client", "toolkit", "prompt", "stream", "history");
        String prompt = a.str("prompt");
        boolean stream = a.bool("stream");
        List<Object> history = a.optList("history");
        if (stream && history != null) {
            throw AdapterException.unsupported("adapter: the Java port's stream takes a conversation id, not a history");
        }
        Port p = port();
        return withRun(a.str("client"), a.optStr("toolkit"), (client, tk) -> {
            if (stream) return drainStream(p, client, prompt, tk);
            if (history != null) return p.runWithHistory(client, prompt, tk, history);
            return p.run(client, prompt, tk);
        });
    }

    private Object clientAsk(Object raw) {
        Args a = new Args("client.ask", raw, "client", "toolkit", "prompt", "id");
        String prompt = a.str("prompt");
        String id = a.str("id");
        Port p = port();
        return withRun(a.str("client"), a.optStr("toolkit"), (client, tk) -> p.ask(client, prompt, tk, id));
    }

    /**
     * Consumes a stream through the port's callback API up to its terminal event. The call
     * returns the final result; the DONE event's result is the fallback.
     */
    private static Object drainStream(Port p, Object client, String prompt, Object tk) {
        Object[] done = new Object[1];
        Object result = p.stream(client, prompt, tk, ev -> {
            if ("DONE".equals(p.streamEventKind(ev))) done[0] = p.component("LlmClient$StreamEvent", ev, "result");
        });
        return result != null ? result : done[0];
    }

    /**
     * Resolves handles, resets the recorder, runs, and builds the run report. With no toolkit
     * named it passes an empty one (builtins off): the Java API needs a Toolkit, and a host
     * with no tools would build exactly that.
     */
    private Object withRun(String clientHandle, String toolkitHandle, RunCall call) {
        ClientEntry entry = client(clientHandle);
        Object tk = toolkitHandle == null ? null : toolkit(toolkitHandle);
        Port p = port();
        Object empty = null;
        if (tk == null) {
            Object opts = p.newToolkitOptions();
            Port.set(opts, "builtins", Boolean.FALSE);
            empty = p.createToolkit(opts);
            tk = empty;
        }
        try {
            long base = entry.rec().reset();
            Object res = call.run(entry.client(), tk);
            // SPEC.md §3: what the port returned, nothing invented; a null result stays null.
            Map<String, Object> report = new LinkedHashMap<>();
            Object text = res == null ? null : Port.get(res, "text");
            report.put("text", text == null ? null : text.toString());
            report.put("turns", res == null ? null : Port.get(res, "turns"));
            List<String> names = null;
            Object calls = res == null ? null : Port.get(res, "toolCalls");
            if (calls instanceof List<?> list) {
                names = new ArrayList<>();
                for (Object tc : list) names.add(String.valueOf(Port.get(tc, "name")));
            }
            report.put("toolCalls", names);
            report.put("transformSaw", entry.rec().transformSaw());
            report.put("hookSaw", entry.rec().hookSaw());
            report.put("httpRequests", entry.rec().httpRequests(base));
            return report;
        } finally {
            if (empty != null) p.closeToolkit(empty);
        }
    }

    private ClientEntry client(String handle) {
        ClientEntry e = clients.get(handle);
        if (e == null) throw AdapterException.failed("adapter: unknown client handle " + handle);
        return e;
    }

    private Object toolkit(String handle) {
        Object tk = toolkits.get(handle);
        if (tk == null) throw AdapterException.failed("adapter: unknown toolkit handle " + handle);
        return tk;
    }

    // ------------------------------------------------------------------ store

    private Object storeGet(Object raw) {
        Args a = new Args("store.get", raw, "client", "id");
        ClientEntry e = client(a.str("client"));
        Object store = port().conversationStore(e.client());
        if (store == null) throw AdapterException.failed("adapter: conversationStore() returned null");
        List<Object> msgs = port().storeGet(store, a.has("id") ? a.str("id") : "");
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("messages", msgs == null ? null : Json.copy(msgs));
        return r;
    }

    private Object storeSave(Object raw) {
        Args a = new Args("store.save", raw, "client", "id", "messages");
        ClientEntry e = client(a.str("client"));
        List<Object> msgs = a.optList("messages");
        Object store = port().conversationStore(e.client());
        if (store == null) throw AdapterException.failed("adapter: conversationStore() returned null");
        port().storeSave(store, a.str("id"), msgs == null ? new ArrayList<>() : msgs);
        return Map.of();
    }

    /** Reference identity between the accessor's store and the one passed as store:"host". */
    private Object storeIdentity(Object raw) {
        Args a = new Args("store.identity", raw, "client", "id");
        ClientEntry e = client(a.str("client"));
        boolean same = e.hostStore() != null && port().conversationStore(e.client()) == e.hostStore();
        return Map.of("same", same);
    }

    // ------------------------------------------------------------------ toolkit and MCP

    /** The port's McpConfig value: the path string for {file}, the object for {inline}. */
    private static Object mcpConfig(Args a) {
        Args c = a.nested("mcpConfig", "file", "inline");
        if (c == null) return null;
        boolean file = c.has("file");
        boolean inline = c.has("inline");
        if (file == inline) throw AdapterException.unsupported("adapter: mcpConfig needs exactly one of file or inline");
        return file ? c.str("file") : c.optMap("inline");
    }

    private Timing timing(Args a) {
        Timing t = new Timing(a.optLong("cancelAfterMs"), a.optLong("deadlineMs"));
        currentConfigOp = true;
        return t;
    }

    private Object toolkitCreate(Object raw) {
        Args a = new Args("toolkit.create", raw, "handle", "mcpConfig", "extraTools", "cancelAfterMs", "deadlineMs");
        Port p = port();
        Object cfg = mcpConfig(a);
        Object opts = p.newToolkitOptions();
        if (cfg != null) Port.set(opts, "mcpConfig", cfg);
        Port.set(opts, "builtins", Boolean.FALSE);
        List<Object> extra = a.optList("extraTools");
        if (extra != null) {
            List<Object> tools = new ArrayList<>();
            for (Object o : extra) tools.add(hostTool(p, new Args("toolkit.create.extraTools", o,
                    "name", "description", "inputSchema", "output")));
            Port.set(opts, "extraTools", tools);
        }
        Timing t = timing(a);
        if (t.set()) Port.set(opts, "cancelSignal", p.cancelSignal(t));
        Object tk = p.createToolkit(opts);
        if (tk == null) return nullTools(); // no handle kept
        Object old = toolkits.put(a.str("handle"), tk);
        if (old != null) p.closeToolkit(old);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tools", names(p, p.toolkitTools(tk)));
        r.put("status", status(p.toolkitStatus(tk)));
        return r;
    }

    /** A host tool (source "custom") that answers with the given output. */
    private static Object hostTool(Port p, Args t) {
        String name = t.str("name");
        String description = t.str("description");
        Map<String, Object> schema = t.optMap("inputSchema");
        String output = t.str("output");
        return Port.implement(p.tn("Tool"), (proxy, m, args) -> switch (m.getName()) {
            case "name" -> name;
            case "description" -> description;
            case "inputSchema" -> schema;
            case "source" -> "custom";
            case "execute" -> p.toolResultOk(output);
            default -> Port.DEFAULT;
        });
    }

    private Object toolkitClose(Object raw) {
        Args a = new Args("toolkit.close", raw, "toolkit");
        Object tk = toolkits.remove(a.str("toolkit"));
        if (tk != null) port().closeToolkit(tk);
        return Map.of();
    }

    /**
     * mcp.load: McpSource.load(input, null, signal), the cancellation-aware entry point (the
     * signal never fires when no limit is given); {@code context:false} uses load(input). The
     * source is closed before the answer.
     */
    private Object mcpLoad(Object raw) {
        Args a = new Args("mcp.load", raw, "mcpConfig", "cancelAfterMs", "deadlineMs", "context");
        Port p = port();
        Object cfg = mcpConfig(a);
        Timing t = timing(a);
        boolean noContext = Boolean.FALSE.equals(a.optBool("context"));
        if (noContext && t.set()) {
            throw AdapterException.unsupported("adapter: McpSource.load(input) takes no cancel signal, so no cancelAfterMs/deadlineMs");
        }
        Object src = noContext ? p.loadMcp(cfg) : p.loadMcpWithSignal(cfg, p.cancelSignal(t));
        if (src == null) return nullTools();
        try {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("tools", names(p, p.sourceTools(src)));
            r.put("status", status(p.sourceStatus(src)));
            return r;
        } finally {
            p.closeSource(src);
        }
    }

    /** mcp.list: McpSource.listMcpTools(input, signal); {@code context:false} uses listMcpTools(input). */
    private Object mcpList(Object raw) {
        Args a = new Args("mcp.list", raw, "mcpConfig", "cancelAfterMs", "deadlineMs", "context");
        Port p = port();
        Object cfg = mcpConfig(a);
        Timing t = timing(a);
        boolean noContext = Boolean.FALSE.equals(a.optBool("context"));
        if (noContext && t.set()) {
            throw AdapterException.unsupported("adapter: McpSource.listMcpTools(input) takes no cancel signal, so no cancelAfterMs/deadlineMs");
        }
        Object inv = noContext ? p.listMcpTools(cfg) : p.listMcpToolsWithSignal(cfg, p.cancelSignal(t));
        if (inv == null) return nullTools();
        Map<String, Object> tools = new LinkedHashMap<>();
        Map<String, Object> status = new LinkedHashMap<>();
        {
            Object byServer = p.component("McpSource$McpInventory", inv, "tools");
            if (byServer instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    List<Object> infos = new ArrayList<>();
                    if (e.getValue() instanceof List<?> list) {
                        for (Object info : list) {
                            Map<String, Object> one = new LinkedHashMap<>();
                            Object name = p.component("McpSource$ToolInfo", info, "name");
                            Object desc = p.component("McpSource$ToolInfo", info, "description");
                            Object schema = p.component("McpSource$ToolInfo", info, "inputSchema");
                            one.put("name", name == null ? null : name.toString());
                            one.put("description", desc == null ? null : desc.toString());
                            one.put("inputSchema", schema == null ? null : Json.copy(schema));
                            infos.add(one);
                        }
                    }
                    tools.put(String.valueOf(e.getKey()), infos);
                }
            }
            Object st = p.component("McpSource$McpInventory", inv, "status");
            if (st instanceof Map<?, ?> m) status = status(m);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tools", tools);
        r.put("status", status);
        return r;
    }

    /** SPEC.md §3: the library returned null where the op reports tools and status. */
    private static Map<String, Object> nullTools() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tools", null);
        r.put("status", null);
        return r;
    }

    /** The tool names, or null when the port gave no list. */
    private static List<String> names(Port p, List<Object> tools) {
        if (tools == null) return null;
        List<String> out = new ArrayList<>();
        for (Object t : tools) out.add(p.toolName(t));
        return out;
    }

    /** A copy of the status map, or null when the port gave none. */
    private static Map<String, Object> status(Map<?, ?> m) {
        if (m == null) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) out.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
        return out;
    }
}
