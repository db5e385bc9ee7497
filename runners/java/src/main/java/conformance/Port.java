package conformance;

import java.lang.reflect.*;
import java.security.CodeSource;
import java.util.*;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The toolnexus Java port, reached by reflection: it is not on Maven Central, so it is no
 * compile-time dependency, and a release that lacks a member answers {@code unsupported} naming
 * it (an absent option) instead of failing the build. Members are found by name and by the
 * arguments given, so call sites read like the port's API. What the port throws passes through
 * unwrapped, so the error relayed is the port's own.
 */
final class Port {
    static final String PKG = "io.github.muthuishere.toolnexus.";
    /** Returned by an {@link #implement} handler to fall through to the interface's default method. */
    static final Object DEFAULT = new Object();

    private Port() {}

    /** A port class by its binary name without the package, e.g. {@code "LlmClient$Options"}. */
    static Class<?> cls(String name) {
        try {
            return Class.forName(PKG + name, false, Port.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw AdapterException.unsupported("the port has no class " + PKG + name + " (is the toolnexus jar on the classpath?)");
        }
    }

    /** Whether args fit the parameter types (null fits any reference). */
    private static boolean fits(Class<?>[] params, Object[] args) {
        if (params.length != args.length) return false;
        for (int i = 0; i < args.length; i++) {
            if (params[i].isPrimitive() || (args[i] != null && !params[i].isInstance(args[i]))) return false;
        }
        return true;
    }

    /** {@code owner.name(args)} on target (null: a static method). */
    static Object call(String owner, Object target, String name, Object... args) {
        for (Method m : cls(owner).getMethods()) {
            if (m.getName().equals(name) && fits(m.getParameterTypes(), args)) return invoke(() -> m.invoke(target, args));
        }
        throw AdapterException.unsupported("the port has no " + owner + "." + name + " taking " + args.length + " argument(s) like these");
    }

    /** {@code new owner(args)}. */
    static Object make(String owner, Object... args) {
        for (Constructor<?> k : cls(owner).getConstructors()) {
            if (fits(k.getParameterTypes(), args)) return invoke(() -> k.newInstance(args));
        }
        throw AdapterException.unsupported("the port has no constructor " + owner + " taking " + args.length + " argument(s)");
    }

    /** A public field, else a public no-argument method (a record component) of target's class. */
    static Object get(Object target, String name) {
        Class<?> c = target.getClass();
        try {
            Field f = c.getField(name);
            return invoke(() -> f.get(target));
        } catch (NoSuchFieldException e) {
            return invoke(() -> c.getMethod(name).invoke(target));
        }
    }

    /** Sets a public field (the port's option classes expose them). */
    static void set(Object target, String field, Object value) {
        try {
            target.getClass().getField(field).set(target, value);
        } catch (NoSuchFieldException e) {
            throw AdapterException.unsupported("the port has no field " + target.getClass().getSimpleName() + "." + field);
        } catch (IllegalAccessException | IllegalArgumentException e) {
            throw AdapterException.failed("adapter: cannot set " + field + ": " + e.getMessage());
        }
    }

    private interface Reflective {
        Object run() throws ReflectiveOperationException;
    }

    private static Object invoke(Reflective r) {
        try {
            return r.run();
        } catch (InvocationTargetException e) {
            throw sneaky(e.getCause());
        } catch (NoSuchMethodException e) {
            throw AdapterException.unsupported("the port has no " + e.getMessage());
        } catch (ReflectiveOperationException e) {
            throw AdapterException.failed("adapter: reflection failed: " + e);
        }
    }

    /** Rethrows what the port threw as it is, checked or not. */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** An implementation of a port interface: h answers (method name, args); Object's methods are identity. */
    static Object implement(String iface, BiFunction<String, Object[], Object> h) {
        Class<?> c = cls(iface);
        return Proxy.newProxyInstance(c.getClassLoader(), new Class<?>[]{c}, (proxy, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> iface + "@adapter";
                };
            }
            Object r = h.apply(m.getName(), args);
            if (r != DEFAULT) return r;
            if (m.isDefault()) return InvocationHandler.invokeDefault(proxy, m, args);
            throw new UnsupportedOperationException("adapter: " + iface + "." + m.getName() + " is not implemented");
        });
    }

    /** The port's version (jar manifest, else the jar's name) and where it was loaded from; hello answers without a port too. */
    static String version() {
        Class<?> c;
        try {
            c = cls("LlmClient");
        } catch (AdapterException e) {
            return "not loaded: " + e.getMessage();
        }
        String v = c.getPackage() != null ? c.getPackage().getImplementationVersion() : null;
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        String where = cs != null && cs.getLocation() != null ? cs.getLocation().getPath() : "?";
        Matcher m = Pattern.compile("toolnexus-(\\d[^/]*?)\\.jar$").matcher(where);
        if (v == null && m.find()) v = m.group(1);
        return (v != null ? v : "unknown") + " (" + where + ")";
    }
}
