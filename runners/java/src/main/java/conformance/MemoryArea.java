package conformance;

import java.util.HashMap;
import java.util.Map;

/**
 * The memory area: the port's Conversation (client.conversation(toolkit)) and its send, reset
 * and messages() (upstream SPEC §8 Conversation memory). A stream with an id is the llm area's.
 */
final class MemoryArea implements Kit.Area {
    private final Map<String, Object> conversations = new HashMap<>();
    private Kit kit;

    @Override public int order() { return 90; }

    @Override
    public void install(Kit kit) {
        this.kit = kit;
        kit.op("conversation.create", a -> {
            Kit.Client c = kit.clients.get(a.get("client"));
            // none named: an empty toolkit (builtins off), as a run gets; it holds nothing to close
            Object tk = a.containsKey("toolkit") ? kit.toolkits.get(a.get("toolkit")) : Kit.newToolkit(opts -> { });
            conversations.put((String) a.get("handle"), Port.call("LlmClient", c.client(), "conversation", tk));
            return Map.of();
        });
        kit.op("conversation.send", a -> LlmArea.report(Port.call("LlmClient$Conversation", conversation(a), "send", a.get("prompt"))));
        kit.op("conversation.reset", a -> {
            Port.call("LlmClient$Conversation", conversation(a), "reset");
            return Map.of();
        });
        kit.op("conversation.messages", a -> Json.obj("messages", Json.copy(Port.call("LlmClient$Conversation", conversation(a), "messages"))));
    }

    private Object conversation(Map<String, Object> a) {
        Object cv = conversations.get(a.get("conversation"));
        if (cv == null) throw AdapterException.failed("adapter: unknown conversation handle " + a.get("conversation"));
        return cv;
    }
}
