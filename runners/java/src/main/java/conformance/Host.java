package conformance;

import java.io.*;
import java.net.*;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import javax.net.ssl.*;

/**
 * The host functions the port receives (SPEC.md §3 "Host functions call back"): each one stub
 * that writes a callback on stdout and blocks for the runner's answer on the callback pipe.
 */
final class Host {
    /** One callback at a time: the port calls tools from several threads (virtual ones: no synchronized). */
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static BufferedReader pipe; // guarded by LOCK; opened on the first callback
    private static long last; // guarded by LOCK

    /** Calls back {@code fn} and returns the runner's answer line; an {@code ok: false} one throws its text. */
    static Map<?, ?> answer(String fn, Map<String, Object> args) {
        LOCK.lock();
        try {
            long n = ++last;
            Json.writeLine(Json.obj("callback", n, "fn", fn, "args", args));
            if (pipe == null) {
                String fd = Objects.requireNonNullElse(System.getenv("CONFORMANCE_CALLBACK_FD"), "3");
                pipe = new BufferedReader(new InputStreamReader(new FileInputStream("/dev/fd/" + fd), StandardCharsets.UTF_8));
            }
            String line = pipe.readLine();
            if (line == null) throw AdapterException.failed("adapter: the callback pipe closed before answering " + fn);
            Map<?, ?> a = Json.MAPPER.readValue(line, Map.class);
            if (!(a.get("callback") instanceof Number k) || k.longValue() != n) {
                throw AdapterException.failed("adapter: callback " + n + " (" + fn + ") got the answer " + line);
            }
            if (!Boolean.TRUE.equals(a.get("ok"))) throw new RuntimeException(String.valueOf(a.get("error")));
            return a;
        } catch (IOException e) {
            throw AdapterException.failed("adapter: callback " + fn + ": " + e);
        } finally {
            LOCK.unlock();
        }
    }

    /** LlmClient.Options.bodyTransform: the answer's body, or the very body received, edited to equal it. */
    static Function<Map<String, Object>, Object> bodyTransform(String client) {
        return body -> {
            Map<?, ?> a = answer("bodyTransform", Json.obj("client", client, "body", body));
            Object value = a.get("value");
            return value != null && Boolean.TRUE.equals(a.get("inPlace")) ? edit(body, value) : value;
        };
    }

    /**
     * Edits have in place to equal want (SPEC.md §3): an object, or an array of the same length, is
     * edited; anything else is replaced, so want is returned for the caller to put in have's place.
     */
    @SuppressWarnings("unchecked")
    static Object edit(Object have, Object want) {
        if (have instanceof Map<?, ?> h && want instanceof Map<?, ?> w) {
            Map<Object, Object> m = (Map<Object, Object>) h;
            m.keySet().retainAll(w.keySet());
            w.forEach((k, v) -> {
                Object old = m.get(k), now = edit(old, v);
                if (now != old || !m.containsKey(k)) m.put(k, now);
            });
            return m;
        }
        if (have instanceof List<?> h && want instanceof List<?> w && h.size() == w.size()) {
            List<Object> l = (List<Object>) h;
            for (int i = 0; i < l.size(); i++) {
                Object old = l.get(i), now = edit(old, w.get(i));
                if (now != old) l.set(i, now);
            }
            return l;
        }
        return Objects.equals(have, want) ? have : want;
    }

    /** LlmClient.Hooks.beforeLLM: null, or an LLMOverride with the fields the runner gave. */
    static Function<Object, Object> beforeLLM(String client) {
        return e -> {
            Object v = answer("beforeLLM", Json.obj("client", client, "turn", Port.get(e, "turn"),
                    "messages", Port.get(e, "messages"), "tools", Port.get(e, "tools"))).get("value");
            if (!(v instanceof Map<?, ?> o)) return null;
            // Jackson's lists are mutable: the port appends to the transcript it is handed.
            return Port.make("LlmClient$LLMOverride", o.get("messages"), o.get("tools"));
        };
    }

    /** A host tool (source "custom") whose execute calls back {@code tool}. */
    static Object tool(String toolkit, Map<?, ?> spec) {
        String name = (String) spec.get("name");
        return Port.implement("Tool", (method, args) -> switch (method) {
            case "name" -> name;
            case "description" -> spec.get("description");
            case "inputSchema" -> spec.get("inputSchema");
            case "source" -> "custom";
            case "execute" -> Port.call("ToolResult", null, "ok",
                    Objects.toString(answer("tool", Json.obj("toolkit", toolkit, "name", name, "input", args[0])).get("value"), null));
            default -> Port.DEFAULT;
        });
    }

    /**
     * A native tool: NativeTool.of(name, description, schema or null, Function), whose function calls
     * back {@code tool} and returns the answer's value as decoded (a String, or a Map, List, number...),
     * or for returns "result" ToolResult.ok/error(output, metadata); an ok: false answer throws.
     */
    static Object nativeTool(String toolkit, Map<?, ?> spec) {
        String name = (String) spec.get("name");
        boolean result = "result".equals(spec.get("returns"));
        Function<Map<String, Object>, Object> fn = args -> {
            Object v = answer("tool", Json.obj("toolkit", toolkit, "name", name, "input", args)).get("value");
            if (!result) return v;
            Map<?, ?> r = (Map<?, ?>) v;
            return Port.call("ToolResult", null, Boolean.TRUE.equals(r.get("isError")) ? "error" : "ok", r.get("output"), r.get("metadata"));
        };
        return Port.call("NativeTool", null, "of", name, spec.get("description"), spec.get("inputSchema"), fn);
    }

    /** One real client behind every recording one: each HttpClient owns a selector thread. */
    private static final HttpClient REAL = HttpClient.newHttpClient();

    /** The "recording" Options.httpClient: calls back {@code http}, then sends through a default client. */
    static HttpClient recordingHttp(String client) {
        return new HttpClient() {
            private HttpRequest callBack(HttpRequest r) {
                answer("http", Json.obj("client", client, "method", r.method(), "url", r.uri().toString()));
                return r;
            }

            @Override
            public <T> HttpResponse<T> send(HttpRequest r, HttpResponse.BodyHandler<T> h) throws IOException, InterruptedException {
                return REAL.send(callBack(r), h);
            }

            @Override
            public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h) {
                return REAL.sendAsync(callBack(r), h);
            }

            @Override
            public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h,
                                                                    HttpResponse.PushPromiseHandler<T> p) {
                return REAL.sendAsync(callBack(r), h, p);
            }

            // The rest is the real client's configuration.
            @Override public Optional<CookieHandler> cookieHandler() { return REAL.cookieHandler(); }
            @Override public Optional<Duration> connectTimeout() { return REAL.connectTimeout(); }
            @Override public Redirect followRedirects() { return REAL.followRedirects(); }
            @Override public Optional<ProxySelector> proxy() { return REAL.proxy(); }
            @Override public SSLContext sslContext() { return REAL.sslContext(); }
            @Override public SSLParameters sslParameters() { return REAL.sslParameters(); }
            @Override public Optional<Authenticator> authenticator() { return REAL.authenticator(); }
            @Override public Version version() { return REAL.version(); }
            @Override public Optional<Executor> executor() { return REAL.executor(); }
        };
    }
}
