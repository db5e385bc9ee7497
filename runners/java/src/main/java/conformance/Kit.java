package conformance;

import java.io.*;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Java port's side of SPEC.md §3, written once: JSON requests on stdin served one at a time
 * on the main thread, a response line each on stdout (callbacks while it runs), logs on stderr.
 * The areas, every Area class of this package (found by {@link #areas}), fill its op table and
 * declare the host-function slots they install; handles live until shutdown. The runner validated each request against the schema: arguments are read as given.
 */
final class Kit {
    /**
     * One area: registers its ops, declares its slots and adds its parts to other areas' options.
     * A class of this package that implements it is found and installed; nothing else names it.
     */
    interface Area {
        void install(Kit kit);

        /**
         * Where the area is installed among the others (lower first, then by class name): the
         * turn of its client.create and toolkit.create parts (transport refuses httpTimeoutMs
         * before the store area makes the host store). hello sorts ops and slots by name.
         */
        int order();
    }

    /** An op: the request's args in, a result of plain values out (Json.copy), or it throws. */
    interface Op extends Function<Map<String, Object>, Object> {}

    /** What an area sets on client.create's LlmClient.Options; what it must find again later goes in kept. */
    interface ClientPart {
        void apply(String handle, Map<String, Object> args, Object opts, Map<String, Object> kept);
    }

    /** A client and what the areas kept of what they passed to it (the store "host" instance). */
    record Client(Object client, Map<String, Object> kept) {}

    private final Map<String, Op> ops = new TreeMap<>();
    /** The host-function slots the areas install: hello will name them (not on the wire yet). */
    private final Set<String> slots = new TreeSet<>();
    private final List<ClientPart> clientParts = new ArrayList<>();
    private final List<BiConsumer<Map<String, Object>, Object>> toolkitParts = new ArrayList<>();
    final KitHandles<Client> clients = new KitHandles<>();
    final KitHandles<Object> toolkits = new KitHandles<>();
    final KitHost host = new KitHost(slots);
    /** What the library threw on a thread of its own that nobody caught; the next response carries it. */
    private final List<String> crashes = Collections.synchronizedList(new ArrayList<>());
    /** The port's warnings while a request is served (else null): its System.err lines starting "[toolnexus]". */
    private final AtomicReference<List<String>> warnings = new AtomicReference<>();

    /** Takes over stdout and stderr and installs the sinks of what the port emits beside its results. */
    static Kit start() {
        PrintStream realErr = System.err;
        // Whatever the port (or a library under it) prints on System.out must not reach stdout.
        System.setOut(new PrintStream(realErr, true, StandardCharsets.UTF_8));
        return new Kit(realErr);
    }

    private Kit(PrintStream realErr) {
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
        // hello names the ops as registered when it is asked, so every area's are in it.
        op("hello", a -> Json.obj("port", "java", "library", "toolnexus", "version", Port.version(),
                "runtime", "java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                "ops", new ArrayList<>(ops.keySet()), "slots", slotNames()));
        op("shutdown", a -> Map.of());
    }

    void op(String name, Op fn) {
        if (ops.putIfAbsent(name, fn) != null) throw new IllegalStateException("op " + name + " registered twice");
    }

    /** Declares the host functions an area installs; KitHost.slot calls back only these. */
    void slots(String... names) {
        slots.addAll(List.of(names));
    }

    /** The declared slots ("<area>.<name>"), as hello lists them. */
    List<String> slotNames() {
        return new ArrayList<>(slots);
    }

    /** Adds to client.create's LlmClient.Options after the llm area's own fields, in the order the areas were installed. */
    void clientPart(ClientPart p) {
        clientParts.add(p);
    }

    /** Adds to toolkit.create's Toolkit.Options after its extraTools, in the order the areas were installed. */
    void toolkitPart(BiConsumer<Map<String, Object>, Object> p) {
        toolkitParts.add(p);
    }

    void applyClientParts(String handle, Map<String, Object> a, Object opts, Map<String, Object> kept) {
        for (ClientPart p : clientParts) p.apply(handle, a, opts, kept);
    }

    void applyToolkitParts(Map<String, Object> a, Object opts) {
        for (var p : toolkitParts) p.accept(a, opts);
    }

    /**
     * Every Area of this package, by order: the concrete top-level classes of the jar or directory
     * the kit was loaded from, loaded without running their static initialisers until installed.
     */
    static List<Area> areas() throws IOException, ReflectiveOperationException {
        String pkg = Kit.class.getPackageName(), dir = pkg.replace('.', '/') + "/";
        Path from;
        try {
            from = Path.of(Kit.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("adapter: cannot locate its own classes: " + e.getMessage(), e);
        }
        List<String> files = new ArrayList<>();
        if (Files.isDirectory(from)) {
            try (var list = Files.list(from.resolve(dir))) {
                list.forEach(p -> files.add(p.getFileName().toString()));
            }
        } else {
            try (JarFile jar = new JarFile(from.toFile())) {
                jar.stream().map(JarEntry::getName).filter(n -> n.startsWith(dir) && n.indexOf('/', dir.length()) < 0)
                        .forEach(n -> files.add(n.substring(dir.length())));
            }
        }
        List<Area> areas = new ArrayList<>();
        for (String f : files) {
            if (!f.endsWith(".class") || f.contains("$")) continue;
            Class<?> c = Class.forName(pkg + "." + f.substring(0, f.length() - ".class".length()), false, Kit.class.getClassLoader());
            if (!Area.class.isAssignableFrom(c) || c.isInterface() || Modifier.isAbstract(c.getModifiers())) continue;
            areas.add((Area) c.getDeclaredConstructor().newInstance());
        }
        if (areas.isEmpty()) throw new IOException("adapter: no area classes in " + from);
        areas.sort(Comparator.comparingInt(Area::order).thenComparing(a -> a.getClass().getName()));
        return areas;
    }

    /** The request loop until shutdown or the end of stdin; then the toolkits close and the JVM exits. */
    void serve() throws IOException, InterruptedException {
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
            Json.writeLine(handle(id.longValue(), String.valueOf(req.get("op")), req.get("args")));
            if ("shutdown".equals(req.get("op"))) break;
        }
        closeAll(2_000);
        System.exit(0); // MCP SDK and HTTP client threads must not keep the JVM alive
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

    /** Toolkit.create with builtins off and the options {@code set} gives (client.run's empty one too). */
    static Object newToolkit(Consumer<Object> set) {
        Object opts = Port.make("Toolkit$Options");
        Port.set(opts, "builtins", Boolean.FALSE);
        set.accept(opts);
        return Port.call("Toolkit", null, "create", opts);
    }

    /** {tools: the tools' final names, status}, as toolkit.create and mcp.load report; a null the port gave stays null. */
    static Map<String, Object> report(Object tools, Object status) {
        List<?> names = tools instanceof List<?> l ? l.stream().map(t -> String.valueOf(Port.call("Tool", t, "name"))).toList() : null;
        return Json.obj("tools", names, "status", status == null ? null : Json.copy(status));
    }
}
