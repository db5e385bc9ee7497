package conformance;

import java.util.*;

/**
 * The translate area (upstream SPEC §11): client.translate hands one Translate.Request, with
 * exactly the fields given set, to the port's translate and reports its Translate.Result as the
 * port returned it. The toolkit is declared, never run.
 */
final class TranslateArea implements Kit.Area {
    @Override public int order() { return 110; }

    @Override
    public void install(Kit kit) {
        kit.op("client.translate", a -> {
            Object client = kit.clients.get(a.get("client")).client();
            Object req = Port.make("Translate$Request");
            Port.set(req, "messages", a.get("messages"));
            for (String k : List.of("tools", "toolChoice", "system")) {
                if (a.containsKey(k)) Port.set(req, k, a.get(k));
            }
            if (a.containsKey("toolkit")) Port.set(req, "toolkit", kit.toolkits.get(a.get("toolkit")));
            if (a.get("maxTokens") instanceof Number n) Port.set(req, "maxTokens", n.intValue());
            return report(Port.call("LlmClient", client, "translate", req));
        });
    }

    /** A Translate.Result in the protocol's names; a null the port gave stays null. */
    private static Map<String, Object> report(Object res) {
        if (res == null) return Json.obj("text", null, "toolCalls", null, "finishReason", null, "usage", null, "model", null);
        List<?> calls = Port.get(res, "toolCalls") instanceof List<?> l ? l : null;
        Object usage = Port.get(res, "usage");
        return Json.obj("text", Port.get(res, "text"),
                "toolCalls", calls == null ? null : calls.stream().map(tc -> Json.obj("id", Port.get(tc, "id"),
                        "name", Port.get(tc, "name"), "arguments", Port.get(tc, "arguments"))).toList(),
                "finishReason", Port.get(res, "finishReason"),
                "usage", usage == null ? null : Json.obj("promptTokens", Port.get(usage, "promptTokens"),
                        "completionTokens", Port.get(usage, "completionTokens"), "totalTokens", Port.get(usage, "totalTokens")),
                "model", Port.get(res, "model"));
    }
}
