package conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What one client's hooks saw: the body transform's input bodies, the BeforeLLM events and
 * (with httpClient "recording") the HTTP requests. The port may call hooks from its own
 * threads, hence the locking.
 */
final class Recorder {
    private final Port port;
    private final List<Object> transformSaw = new ArrayList<>();
    private final List<Map<String, Object>> hookSaw = new ArrayList<>();
    /** The recording HTTP client, or null when none was injected. */
    CountingHttpClient http;

    Recorder(Port port) {
        this.port = port;
    }

    /** Starts a request's recording; returns the HTTP request count to subtract at the end. */
    synchronized long reset() {
        transformSaw.clear();
        hookSaw.clear();
        return http == null ? 0 : http.requests.get();
    }

    synchronized List<Object> transformSaw() {
        return new ArrayList<>(transformSaw);
    }

    synchronized List<Map<String, Object>> hookSaw() {
        return new ArrayList<>(hookSaw);
    }

    long httpRequests(long base) {
        return http == null ? 0 : http.requests.get() - base;
    }

    /**
     * The BodyTransform of SPEC.md §3: record a deep copy of the body received, then return the
     * port's null ({@code returnNull}) or an edited shallow copy: {@code delete} keys,
     * {@code set} keys, {@code appendToLastUser} to the string content of the last user message.
     * The body's own maps are never edited in place.
     */
    Function<Map<String, Object>, Map<String, Object>> bodyTransform(Args t) {
        List<Object> delete = t.optList("delete");
        Map<String, Object> set = t.optMap("set");
        String append = t.optStr("appendToLastUser");
        Map<String, Object> setNested = t.optMap("setNested");
        boolean inPlace = t.bool("inPlace");
        boolean returnNull = t.bool("returnNull");
        if (delete != null) {
            for (Object k : delete) {
                if (!(k instanceof String)) throw AdapterException.failed("adapter: bodyTransform.delete must hold strings");
            }
        }
        return body -> {
            Object seen = Json.copy(body);
            synchronized (this) {
                transformSaw.add(seen);
            }
            if (returnNull) return null;
            // inPlace (SPEC.md §3, A4.4): edit the very maps received and return the same body.
            Map<String, Object> out = inPlace ? body : new LinkedHashMap<>(body);
            if (delete != null) {
                for (Object k : delete) out.remove((String) k);
            }
            if (set != null) {
                // A fresh copy per call, so no two bodies share a value.
                @SuppressWarnings("unchecked")
                Map<String, Object> fresh = (Map<String, Object>) Json.copy(set);
                out.putAll(fresh);
            }
            if (setNested != null) {
                for (Map.Entry<String, Object> e : setNested.entrySet()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> sub = (Map<String, Object>) Json.copy(e.getValue());
                    Object old = out.get(e.getKey());
                    if (inPlace && old instanceof Map<?, ?> m) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> target = (Map<String, Object>) m;
                        target.putAll(sub);
                    } else {
                        Map<String, Object> merged = new LinkedHashMap<>();
                        if (old instanceof Map<?, ?> m) {
                            for (Map.Entry<?, ?> x : m.entrySet()) merged.put(String.valueOf(x.getKey()), x.getValue());
                        }
                        merged.putAll(sub);
                        out.put(e.getKey(), merged);
                    }
                }
            }
            if (append != null && out.get("messages") instanceof List<?> msgs) {
                if (inPlace) {
                    for (int i = msgs.size() - 1; i >= 0; i--) {
                        if (msgs.get(i) instanceof Map<?, ?> m && "user".equals(m.get("role"))) {
                            if (m.get("content") instanceof String s) {
                                @SuppressWarnings("unchecked")
                                Map<String, Object> msg = (Map<String, Object>) m;
                                msg.put("content", s + append);
                            }
                            break;
                        }
                    }
                } else {
                    out.put("messages", editLastUser(msgs, c -> c instanceof String s ? s + append : c));
                }
            }
            return out;
        };
    }

    /**
     * The BeforeLLM hook of SPEC.md §3: record {turn, messageCount, toolCount}, then override
     * {@code messages} (last user content replaced, when {@code setLastUserContent} is given)
     * and {@code tools} (when the field is present). Lists handed to the port are fresh and
     * mutable, since the port keeps appending to the transcript it is given.
     */
    Function<Object, Object> beforeLLM(Args h) {
        String setLast = h.optStr("setLastUserContent");
        List<Object> tools = h.optList("tools");
        return ev -> {
            Object msgs = port.component("LlmClient$BeforeLLMEvent", ev, "messages");
            Object tls = port.component("LlmClient$BeforeLLMEvent", ev, "tools");
            Object turn = port.component("LlmClient$BeforeLLMEvent", ev, "turn");
            Map<String, Object> saw = new LinkedHashMap<>();
            saw.put("turn", turn instanceof Number n ? n.intValue() : -1);
            saw.put("messageCount", msgs instanceof List<?> l ? l.size() : 0);
            saw.put("toolCount", tls instanceof List<?> l ? l.size() : 0);
            synchronized (this) {
                hookSaw.add(saw);
            }
            List<Object> newMsgs = null;
            if (setLast != null && msgs instanceof List<?> l) newMsgs = editLastUser(l, c -> setLast);
            List<Map<String, Object>> newTools = null;
            if (tools != null) {
                newTools = new ArrayList<>();
                for (Object t : tools) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> fresh = (Map<String, Object>) Json.copy(t);
                    newTools.add(fresh);
                }
            }
            return port.llmOverride(newMsgs, newTools);
        };
    }

    /**
     * A mutable copy of {@code msgs} where the last message whose role is "user" is replaced by
     * a copy with {@code content = edit(content)}.
     */
    @SuppressWarnings("unchecked")
    static List<Object> editLastUser(List<?> msgs, Function<Object, Object> edit) {
        List<Object> out = new ArrayList<>(msgs);
        for (int i = out.size() - 1; i >= 0; i--) {
            if (out.get(i) instanceof Map<?, ?> m && "user".equals(m.get("role"))) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) m);
                copy.put("content", edit.apply(m.get("content")));
                out.set(i, copy);
                break;
            }
        }
        return out;
    }
}
