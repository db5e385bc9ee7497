package conformance;

import java.util.*;

/** store.get, store.save and store.identity; store "host": the in-memory store the adapter passes itself. */
final class StoreArea implements Kit.Area {
    private Kit kit;

    /** After the transport area, whose refusal comes before a store is made. */
    @Override public int order() { return 30; }

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        // Kept with the client: store.identity compares the accessor's answer with this very instance.
        kit.clientPart((handle, a, opts, kept) -> {
            if (!"host".equals(a.get("store"))) return;
            Object hostStore = Port.make("LlmClient$InMemoryConversationStore");
            Port.set(opts, "store", hostStore);
            kept.put("store", hostStore);
        });
        kit.op("store.get", a -> {
            Object msgs = Port.call("LlmClient$ConversationStore", store(a), "get", a.getOrDefault("id", ""));
            return Json.obj("messages", msgs == null ? null : Json.copy(msgs));
        });
        kit.op("store.save", a -> {
            Port.call("LlmClient$ConversationStore", store(a), "save", a.get("id"), new ArrayList<>((List<?>) a.get("messages")));
            return Map.of();
        });
        kit.op("store.identity", a -> {
            Kit.Client c = kit.clients.get(a.get("client"));
            Object hostStore = c.kept().get("store");
            return Map.of("same", hostStore != null && Port.call("LlmClient", c.client(), "conversationStore") == hostStore);
        });
    }

    /** The client's conversationStore(); null is the adapter's failure, as no op can use it. */
    private Object store(Map<String, Object> a) {
        Object store = Port.call("LlmClient", kit.clients.get(a.get("client")).client(), "conversationStore");
        if (store == null) throw AdapterException.failed("adapter: conversationStore() returned null");
        return store;
    }
}
