package conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One request's {@code args}, read strictly: a field this adapter does not know is an argument
 * it cannot express ("unsupported"); a field of the wrong type is the runner's mistake ("failed").
 */
final class Args {
    private final String op;
    private final Map<String, Object> m;

    @SuppressWarnings("unchecked")
    Args(String op, Object raw, String... known) {
        this.op = op;
        if (raw == null) {
            m = Map.of();
        } else if (raw instanceof Map<?, ?> map) {
            m = (Map<String, Object>) map;
        } else {
            throw AdapterException.failed("adapter: " + op + ": args is not an object");
        }
        Set<String> ok = Set.of(known);
        for (String k : m.keySet()) {
            if (!ok.contains(k)) throw AdapterException.unsupported("adapter: unknown argument \"" + k + "\" (" + op + ")");
        }
    }

    boolean has(String k) {
        return m.containsKey(k) && m.get(k) != null;
    }

    private AdapterException bad(String k, String want) {
        return AdapterException.failed("adapter: " + op + ": \"" + k + "\" must be " + want);
    }

    String str(String k) {
        Object v = m.get(k);
        if (v instanceof String s) return s;
        throw bad(k, "a string");
    }

    String optStr(String k) {
        return has(k) ? str(k) : null;
    }

    Long optLong(String k) {
        if (!has(k)) return null;
        Object v = m.get(k);
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) return n.longValue();
        throw bad(k, "an integer");
    }

    boolean bool(String k) {
        if (!has(k)) return false;
        if (m.get(k) instanceof Boolean b) return b;
        throw bad(k, "a boolean");
    }

    Boolean optBool(String k) {
        return has(k) ? bool(k) : null;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> optMap(String k) {
        if (!has(k)) return null;
        if (m.get(k) instanceof Map<?, ?> map) return (Map<String, Object>) map;
        throw bad(k, "an object");
    }

    /** A JSON array as a fresh mutable list (the port may append to it). */
    @SuppressWarnings("unchecked")
    List<Object> optList(String k) {
        if (!has(k)) return null;
        if (m.get(k) instanceof List<?> list) return new ArrayList<>((List<Object>) list);
        throw bad(k, "an array");
    }

    /** A nested object read with the same strictness. */
    Args nested(String k, String... known) {
        return has(k) ? new Args(op + "." + k, optMap(k), known) : null;
    }
}
