package conformance;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The toolnexus Java port's public API, reached by reflection.
 *
 * <p>The port is not served by Maven Central here, so it cannot be a compile-time dependency
 * of this Maven project; it is put on the classpath when the adapter starts. Each method below
 * names one public entry point of the port (class, member, parameter types). A member the
 * port does not have is reported as {@code unsupported}, naming it, so a port release with a
 * different surface shows up as such instead of failing to build.
 */
final class Port {
    static final String PKG = "io.github.muthuishere.toolnexus.";

    private final Map<String, Class<?>> classes = new ConcurrentHashMap<>();

    /** Loads the three entry-point classes; missing ones mean the port is not on the classpath. */
    Port() {
        cls(PKG + "LlmClient");
        cls(PKG + "Toolkit");
        cls(PKG + "McpSource");
    }

    // ------------------------------------------------------------------ reflection helpers

    /** A class by binary name ({@code Outer$Inner}); unsupported when absent. */
    Class<?> cls(String name) {
        Class<?> c = classes.get(name);
        if (c != null) return c;
        try {
            c = Class.forName(name, false, Port.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw AdapterException.unsupported("the port has no class " + name
                    + " (is the toolnexus jar on the classpath?)");
        }
        classes.put(name, c);
        return c;
    }

    /** A port class by its simple binary name, e.g. {@code "LlmClient$Options"}. */
    Class<?> tn(String simple) {
        return cls(PKG + simple);
    }

    private static String sig(Class<?> owner, String name, Class<?>... types) {
        return owner.getSimpleName() + "." + name + "("
                + Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
    }

    /** A public method; unsupported when the port has no such member. */
    static Method method(Class<?> owner, String name, Class<?>... types) {
        try {
            return owner.getMethod(name, types);
        } catch (NoSuchMethodException e) {
            throw AdapterException.unsupported("the port has no " + sig(owner, name, types));
        }
    }

    /** Calls a method; what the port throws is rethrown unchanged (unchecked or wrapped). */
    static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw rethrow(e.getCause());
        } catch (IllegalAccessException e) {
            throw AdapterException.failed("adapter: cannot call " + m + ": " + e.getMessage());
        }
    }

    /** Calls {@code owner.name(types)} on target (null for a static method). */
    static Object call(Class<?> owner, Object target, String name, Class<?>[] types, Object... args) {
        return invoke(method(owner, name, types), target, args);
    }

    /** Creates an instance through a public constructor. */
    static Object construct(Class<?> c, Class<?>[] types, Object... args) {
        try {
            Constructor<?> k = c.getConstructor(types);
            return k.newInstance(args);
        } catch (NoSuchMethodException e) {
            throw AdapterException.unsupported("the port has no constructor " + sig(c, "new", types));
        } catch (InvocationTargetException e) {
            throw rethrow(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw AdapterException.failed("adapter: cannot create " + c.getName() + ": " + e);
        }
    }

    /** Sets a public field (the port's option classes expose public fields). */
    static void set(Object target, String field, Object value) {
        Field f = field(target.getClass(), field);
        try {
            f.set(target, value);
        } catch (IllegalAccessException | IllegalArgumentException e) {
            throw AdapterException.failed("adapter: cannot set " + f + ": " + e.getMessage());
        }
    }

    /** Reads a public field. */
    static Object get(Object target, String field) {
        Field f = field(target.getClass(), field);
        try {
            return f.get(target);
        } catch (IllegalAccessException e) {
            throw AdapterException.failed("adapter: cannot read " + f + ": " + e.getMessage());
        }
    }

    private static Field field(Class<?> c, String name) {
        try {
            return c.getField(name);
        } catch (NoSuchFieldException e) {
            throw AdapterException.unsupported("the port has no field " + c.getSimpleName() + "." + name);
        }
    }

    /** An implementation of a port interface; Object methods behave as identity. */
    static Object implement(Class<?> iface, InvocationHandler h) {
        return Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[]{iface}, (proxy, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> iface.getSimpleName() + "@adapter";
                };
            }
            Object r = h.invoke(proxy, m, args);
            if (r != DEFAULT) return r;
            if (m.isDefault()) return InvocationHandler.invokeDefault(proxy, m, args);
            throw new UnsupportedOperationException(
                    "adapter: " + iface.getSimpleName() + "." + m.getName() + " is not implemented");
        });
    }

    /** Returned by a handler to fall through to an interface's default method. */
    static final Object DEFAULT = new Object();

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new PortThrew(t);
    }

    /** A checked exception thrown by the port, carried unchanged to the error mapping. */
    static final class PortThrew extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortThrew(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }

    // ------------------------------------------------------------------ identity

    /** The port's version: its jar manifest, else the version in its jar's name; plus where it came from. */
    String version() {
        Class<?> c = tn("LlmClient");
        String v = c.getPackage() != null ? c.getPackage().getImplementationVersion() : null;
        String where = "?";
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        if (cs != null && cs.getLocation() != null) {
            URL u = cs.getLocation();
            where = u.getPath();
            if (v == null) {
                Matcher m = Pattern.compile("toolnexus-(\\d[^/]*?)\\.jar$").matcher(where);
                if (m.find()) v = m.group(1);
            }
        }
        return (v != null ? v : "unknown") + " (" + where + ")";
    }

    // ------------------------------------------------------------------ LlmClient

    Object newClientOptions() {
        return construct(tn("LlmClient$Options"), new Class<?>[0]);
    }

    Object newHooks() {
        return construct(tn("LlmClient$Hooks"), new Class<?>[0]);
    }

    Object newInMemoryStore() {
        return construct(tn("LlmClient$InMemoryConversationStore"), new Class<?>[0]);
    }

    Object createClient(Object options) {
        return call(tn("LlmClient"), null, "create", new Class<?>[]{tn("LlmClient$Options")}, options);
    }

    Object run(Object client, String prompt, Object toolkit) {
        return call(tn("LlmClient"), client, "run", new Class<?>[]{String.class, tn("Toolkit")}, prompt, toolkit);
    }

    Object runWithHistory(Object client, String prompt, Object toolkit, List<Object> history) {
        return call(tn("LlmClient"), client, "run", new Class<?>[]{String.class, tn("Toolkit"), List.class},
                prompt, toolkit, history);
    }

    /** The callback form of stream: events arrive on {@code onEvent}; it returns the final result. */
    Object stream(Object client, String prompt, Object toolkit, Consumer<Object> onEvent) {
        return call(tn("LlmClient"), client, "stream", new Class<?>[]{String.class, tn("Toolkit"), Consumer.class},
                prompt, toolkit, onEvent);
    }

    Object ask(Object client, String prompt, Object toolkit, String id) {
        return call(tn("LlmClient"), client, "ask", new Class<?>[]{String.class, tn("Toolkit"), String.class},
                prompt, toolkit, id);
    }

    Object conversationStore(Object client) {
        return call(tn("LlmClient"), client, "conversationStore", new Class<?>[0]);
    }

    @SuppressWarnings("unchecked")
    List<Object> storeGet(Object store, String id) {
        return (List<Object>) call(tn("LlmClient$ConversationStore"), store, "get", new Class<?>[]{String.class}, id);
    }

    void storeSave(Object store, String id, List<Object> messages) {
        call(tn("LlmClient$ConversationStore"), store, "save", new Class<?>[]{String.class, List.class}, id, messages);
    }

    /** {@code new LlmClient.LLMOverride(messages, tools)}; null fields mean "keep". */
    Object llmOverride(List<Object> messages, List<Map<String, Object>> tools) {
        return construct(tn("LlmClient$LLMOverride"), new Class<?>[]{List.class, List.class}, messages, tools);
    }

    /** Reads a record component of an event (e.g. BeforeLLMEvent.turn()). */
    Object component(String recordClass, Object record, String name) {
        return call(tn(recordClass), record, name, new Class<?>[0]);
    }

    /** The kind name of a StreamEvent (e.g. "DONE"). */
    String streamEventKind(Object event) {
        Object kind = component("LlmClient$StreamEvent", event, "type");
        return kind == null ? "" : kind.toString();
    }

    // ------------------------------------------------------------------ Toolkit

    Object newToolkitOptions() {
        return construct(tn("Toolkit$Options"), new Class<?>[0]);
    }

    Object createToolkit(Object options) {
        return call(tn("Toolkit"), null, "create", new Class<?>[]{tn("Toolkit$Options")}, options);
    }

    @SuppressWarnings("unchecked")
    List<Object> toolkitTools(Object toolkit) {
        return (List<Object>) call(tn("Toolkit"), toolkit, "tools", new Class<?>[0]);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> toolkitStatus(Object toolkit) {
        return (Map<String, Object>) call(tn("Toolkit"), toolkit, "mcpStatus", new Class<?>[0]);
    }

    void closeToolkit(Object toolkit) {
        call(tn("Toolkit"), toolkit, "close", new Class<?>[0]);
    }

    /** A Tool's final name, through the Tool interface (implementations may be private classes). */
    String toolName(Object tool) {
        return String.valueOf(call(tn("Tool"), tool, "name", new Class<?>[0]));
    }

    /** {@code ToolResult.ok(output)}. */
    Object toolResultOk(String output) {
        return call(tn("ToolResult"), null, "ok", new Class<?>[]{String.class}, output);
    }

    // ------------------------------------------------------------------ McpSource

    /** A McpSource.CancelSignal answering from {@code timing}. */
    Object cancelSignal(Timing timing) {
        return implement(tn("McpSource$CancelSignal"), (proxy, m, args) -> {
            if (m.getName().equals("cancelled")) return timing.cancelled();
            return DEFAULT;
        });
    }

    /** {@code McpSource.load(input)}: the entry point without a cancellation signal. */
    Object loadMcp(Object input) {
        return call(tn("McpSource"), null, "load", new Class<?>[]{Object.class}, input);
    }

    /** {@code McpSource.load(input, waitFor, cancel)}: the cancellation-aware entry point. */
    Object loadMcpWithSignal(Object input, Object cancelSignal) {
        return call(tn("McpSource"), null, "load",
                new Class<?>[]{Object.class, Function.class, tn("McpSource$CancelSignal")}, input, null, cancelSignal);
    }

    @SuppressWarnings("unchecked")
    List<Object> sourceTools(Object source) {
        return (List<Object>) call(tn("McpSource"), source, "tools", new Class<?>[0]);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> sourceStatus(Object source) {
        return (Map<String, Object>) call(tn("McpSource"), source, "status", new Class<?>[0]);
    }

    void closeSource(Object source) {
        call(tn("McpSource"), source, "close", new Class<?>[0]);
    }

    Object listMcpTools(Object input) {
        return call(tn("McpSource"), null, "listMcpTools", new Class<?>[]{Object.class}, input);
    }

    Object listMcpToolsWithSignal(Object input, Object cancelSignal) {
        return call(tn("McpSource"), null, "listMcpTools",
                new Class<?>[]{Object.class, tn("McpSource$CancelSignal")}, input, cancelSignal);
    }
}
