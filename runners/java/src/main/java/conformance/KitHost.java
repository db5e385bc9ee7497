package conformance;

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one host-function stub (SPEC.md §3 "Host functions call back"): every function the port
 * receives from its host calls {@link #slot}, which writes a callback on stdout and blocks for the
 * runner's answer on the callback pipe. The areas build the port's objects around it.
 */
final class KitHost {
    /** One callback at a time: the port calls tools from several threads (virtual ones: no synchronized). */
    private final ReentrantLock lock = new ReentrantLock();
    private BufferedReader pipe; // guarded by lock; opened on the first callback
    private long last; // guarded by lock

    private final Set<String> declared;

    /** declared: the slot names the areas install (the kit's list, filled before the first request). */
    KitHost(Set<String> declared) {
        this.declared = declared;
    }

    /**
     * Calls back {@code fn} and returns the runner's answer as {value, inPlace}: it returns a value,
     * edits the argument in place, or raises (its text thrown); this port has no suspension, so a
     * suspend is the adapter's fault.
     */
    Map<?, ?> slot(String fn, Map<String, Object> args) {
        // The list hello will send must be what the adapter calls back, so an undeclared slot is a fault.
        if (!declared.contains(fn)) throw AdapterException.failed("adapter: host function " + fn + " is not declared by an area");
        lock.lock();
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
            if (a.containsKey("raise")) throw new RuntimeException(String.valueOf(a.get("raise")));
            if (a.containsKey("suspend")) throw AdapterException.failed("adapter: the runner suspended " + fn + ", which this adapter cannot");
            boolean inPlace = a.containsKey("edit");
            Map<String, Object> out = new java.util.HashMap<>();
            out.put("value", inPlace ? a.get("edit") : a.get("return"));
            out.put("inPlace", inPlace);
            return out;
        } catch (IOException e) {
            throw AdapterException.failed("adapter: callback " + fn + ": " + e);
        } finally {
            lock.unlock();
        }
    }

    /** The answer's value; for an edit (with a value) the very object received, edited to equal it. */
    static Object value(Map<?, ?> answer, Object received) {
        Object value = answer.get("value");
        return value != null && Boolean.TRUE.equals(answer.get("inPlace")) ? edit(received, value) : value;
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
}
