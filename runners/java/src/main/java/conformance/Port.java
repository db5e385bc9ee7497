package conformance;

import java.lang.reflect.*;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The toolnexus Java port by reflection: no compile-time dependency, so a release that lacks a
 * member answers {@code unsupported} naming it (an absent option) instead of failing the build.
 * Members are found by name and arguments; what the port throws passes through unwrapped.
 */
final class Port {
    static final String PKG = "io.github.muthuishere.toolnexus.";
    /** An {@link #implement} handler's answer for "not mine": the interface's default method runs. */
    static final Object DEFAULT = new Object();

    /** A port class by its binary name without the package, e.g. {@code "LlmClient$Options"}. */
    static Class<?> cls(String name) {
        try {
            return Class.forName(PKG + name, false, Port.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw AdapterException.unsupported("the port has no class " + PKG + name + " (is the toolnexus jar on the classpath?)");
        }
    }

    /** {@code owner.name(args)} on target (null: a static method); name "new" is a constructor. */
    static Object call(String owner, Object target, String name, Object... args) {
        Class<?> c = cls(owner);
        for (Executable e : name.equals("new") ? c.getConstructors() : c.getMethods()) {
            if ((e instanceof Constructor || e.getName().equals(name)) && fits(e, args)) {
                return invoke(() -> e instanceof Method m ? m.invoke(target, args) : ((Constructor<?>) e).newInstance(args));
            }
        }
        throw AdapterException.unsupported("the port has no " + owner + "." + name + " taking these " + args.length + " argument(s)");
    }

    static Object make(String owner, Object... args) {
        return call(owner, null, "new", args);
    }

    /**
     * A port record built through its canonical constructor, each component taken from values by
     * its name (absent: null; a primitive boolean component absent or null: false, as Java
     * defaults it). The record's own type is what the port checks for (ToolResult.pendingOf).
     */
    static Object record(String owner, java.util.Map<?, ?> values) {
        Class<?> c = cls(owner);
        RecordComponent[] rc = c.getRecordComponents();
        if (rc == null) throw AdapterException.unsupported("the port's " + PKG + owner + " is not a record");
        Class<?>[] types = new Class<?>[rc.length];
        Object[] args = new Object[rc.length];
        for (int i = 0; i < rc.length; i++) {
            types[i] = rc[i].getType();
            Object v = values.get(rc[i].getName());
            args[i] = v == null && types[i] == boolean.class ? Boolean.FALSE : v;
        }
        return invoke(() -> c.getConstructor(types).newInstance(args));
    }

    /** Whether args fit the parameters (null fits any reference). */
    private static boolean fits(Executable e, Object[] args) {
        Class<?>[] p = e.getParameterTypes();
        return p.length == args.length
                && IntStream.range(0, p.length).allMatch(i -> !p[i].isPrimitive() && (args[i] == null || p[i].isInstance(args[i])));
    }

    /** A public field, else a public no-argument method (a record component), of target's class. */
    static Object get(Object target, String name) {
        return invoke(() -> {
            try {
                return target.getClass().getField(name).get(target);
            } catch (NoSuchFieldException e) {
                return target.getClass().getMethod(name).invoke(target);
            }
        });
    }

    /** Sets a public field (the port's option classes expose them). */
    static void set(Object target, String name, Object value) {
        invoke(() -> {
            target.getClass().getField(name).set(target, value);
            return null;
        });
    }

    private interface Reflective {
        Object run() throws ReflectiveOperationException;
    }

    private static Object invoke(Reflective r) {
        try {
            return r.run();
        } catch (InvocationTargetException e) {
            throw sneaky(e.getCause());
        } catch (NoSuchFieldException | NoSuchMethodException e) {
            throw AdapterException.unsupported("the port has no member " + e.getMessage());
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw AdapterException.failed("adapter: reflection failed: " + e);
        }
    }

    /** Rethrows what the port threw as it is, checked or not. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** A port interface implemented by h (method name, args), with identity for Object's methods. */
    static Object implement(String iface, BiFunction<String, Object[], Object> h) {
        Class<?> c = cls(iface);
        return Proxy.newProxyInstance(c.getClassLoader(), new Class<?>[]{c}, (proxy, m, args) -> {
            Object r = switch (m.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> iface + "@adapter";
                default -> h.apply(m.getName(), args);
            };
            return r != DEFAULT ? r : InvocationHandler.invokeDefault(proxy, m, args);
        });
    }

    /** The port's version (manifest, else jar name) and where it came from, or why it does not load (prepare's probe). */
    static String version() {
        try {
            Class<?> c = cls("LlmClient");
            Class.forName("io.modelcontextprotocol.client.McpClient", false, Port.class.getClassLoader());
            String where = c.getProtectionDomain().getCodeSource().getLocation().getPath();
            String v = c.getPackage().getImplementationVersion();
            Matcher m = Pattern.compile("toolnexus-(\\d[^/]*?)\\.jar$").matcher(where);
            return (v != null ? v : m.find() ? m.group(1) : "unknown") + " (" + where + ")";
        } catch (ClassNotFoundException e) {
            return "not loaded: the port's MCP SDK (io.modelcontextprotocol.sdk:mcp) is not on the classpath";
        } catch (AdapterException | LinkageError e) {
            return "not loaded: " + e.getMessage();
        }
    }
}
