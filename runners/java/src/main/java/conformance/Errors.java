package conformance;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.*;

/**
 * What the port threw, relayed as SPEC.md §3's {@code {message, type, chain}}: the runner judges
 * its kind from runners/java/errors.json. Only the adapter's own answers carry a kind.
 */
final class Errors {
    private Errors() {}

    static Map<String, Object> relay(Throwable t) {
        // Reflection and proxies wrap what the port threw; those wrappers are the adapter's.
        while ((t instanceof InvocationTargetException || t instanceof UndeclaredThrowableException) && t.getCause() != null) {
            t = t.getCause();
        }
        List<Throwable> causes = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) causes.add(c);
        List<Map<String, Object>> chain = new ArrayList<>();
        for (Throwable c : causes) {
            // The adapter's own fault stays its own, also when it surfaced through the port (a stub's).
            if (c instanceof AdapterException a) return Json.obj("kind", a.kind, "message", a.getMessage());
            List<String> is = new ArrayList<>();
            for (Class<?> k = c.getClass().getSuperclass(); k != Throwable.class; k = k.getSuperclass()) is.add(k.getName());
            chain.add(Json.obj("type", c.getClass().getName(), "is", is, "message", message(c)));
        }
        t.printStackTrace(); // the runner shows stderr in failures
        return Json.obj("message", message(t), "type", t.getClass().getName(), "chain", chain);
    }

    /** The exception's text, or its name when it carries none. */
    private static String message(Throwable t) {
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }
}
