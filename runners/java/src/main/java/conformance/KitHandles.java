package conformance;

import java.util.*;

/** Named objects the adapter keeps between requests (clients, toolkits), until shutdown. */
final class KitHandles<T> {
    private final Map<String, T> byName = new LinkedHashMap<>();

    /** The object a request names; an unknown name is the adapter's own failure. */
    T get(Object name) {
        T v = byName.get(name);
        if (v == null) throw AdapterException.failed("adapter: unknown handle " + name);
        return v;
    }

    /** Keeps v under name and returns what it replaced (null if none), for the caller to close. */
    T put(String name, T v) {
        return byName.put(name, v);
    }

    T remove(Object name) {
        return byName.remove(name);
    }

    Collection<T> values() {
        return byName.values();
    }
}
