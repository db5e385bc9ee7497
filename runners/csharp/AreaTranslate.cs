// The translate area (upstream SPEC §11): client.translate hands one Translate.Request, with
// exactly the fields given set, to the port's TranslateAsync and reports its Translate.Result as
// the port returned it. The toolkit is declared, never run.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaTranslate : IArea
{
    public void Register(Registry r) => r.Op("client.translate", TranslateAsync);

    private static async Task<JsonObject> TranslateAsync(JsonObject a)
    {
        var client = Handles.Client(a);
        var req = new Translate.Request
        {
            Messages = Json.Arg<List<object?>>(a, "messages") ?? throw AdapterError.Failed("adapter: messages is missing"),
        };
        if (a.ContainsKey("tools")) req.Tools = Json.Arg<List<object?>>(a, "tools");
        if ((string?)a["toolkit"] is string tk) req.Toolkit = Handles.Toolkits[tk];
        if (a.ContainsKey("toolChoice")) req.ToolChoice = Json.FromJson(a["toolChoice"]);
        if (a.ContainsKey("system")) req.System = (string?)a["system"];
        if ((int?)a["maxTokens"] is int max) req.MaxTokens = max;
        var res = await client.TranslateAsync(req);
        var calls = res.ToolCalls?.Select(tc => (JsonNode?)new JsonObject { ["id"] = tc.Id, ["name"] = tc.Name, ["arguments"] = tc.Arguments });
        return new JsonObject
        {
            ["text"] = res.Text,
            ["toolCalls"] = calls == null ? null : new JsonArray(calls.ToArray()),
            ["finishReason"] = res.FinishReason,
            ["usage"] = res.Usage == null ? null : new JsonObject { ["promptTokens"] = res.Usage.PromptTokens,
                ["completionTokens"] = res.Usage.CompletionTokens, ["totalTokens"] = res.Usage.TotalTokens },
            ["model"] = res.Model,
        };
    }
}
