// The llm area (SPEC.md §3): client.create with the options every area adds, client.run (run and
// stream), client.ask, and the bodyTransform and beforeLLM slots; a run's report as the library
// returned it (also the stream's done result and the memory area's send).
using System.Collections;
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaLlm : IArea
{
    public const string BodyTransformSlot = "llm.bodyTransform", BeforeLLMSlot = "llm.beforeLLM";

    public void Register(Registry r)
    {
        r.Slot(BodyTransformSlot);
        r.Slot(BeforeLLMSlot);
        r.Op("client.create", a => ClientCreate(r, a));
        r.Op("client.run", ClientRunAsync);
        r.Op("client.ask", ClientAskAsync);
        r.ClientOption((handle, a, o) =>
        {
            if ((bool?)a["bodyTransform"] == true) o.BodyTransform = BodyTransform(handle);
            if ((bool?)a["beforeLLM"] == true) (o.Hooks ??= new LlmClient.Hooks()).BeforeLLM = BeforeLLM(handle);
        });
    }

    private static JsonObject ClientCreate(Registry r, JsonObject a)
    {
        var handle = (string)a["handle"]!;
        var opts = new LlmClient.Options
        {
            BaseUrl = (string?)a["baseUrl"] ?? "",
            Style = (string?)a["style"] ?? "openai",
            Model = (string?)a["model"] ?? "",
            ApiKey = (string?)a["apiKey"],
            SystemPrompt = (string?)a["systemPrompt"],
            MaxTurns = (int?)a["maxTurns"],
            RequestParams = Json.Arg<Dictionary<string, object?>>(a, "requestParams"),
        };
        r.ApplyClientOptions(handle, a, opts);
        Handles.Clients.Set(handle, LlmClient.Create(opts));
        return new JsonObject();
    }

    // cancelAfterMs is a CancellationTokenSource cancelling after that long, the port's external
    // cancel; a stream with an id is StreamAsync's id.
    private static async Task<JsonObject> ClientRunAsync(JsonObject a)
    {
        var client = Handles.Client(a);
        var prompt = (string?)a["prompt"] ?? "";
        var history = Json.Arg<List<object?>>(a, "history");
        using var cts = new CancellationTokenSource();
        if ((long?)a["cancelAfterMs"] is long ms) cts.CancelAfter(TimeSpan.FromMilliseconds(ms));
        if ((bool?)a["stream"] != true) return Report(await Handles.WithToolkitAsync(a, tk => client.RunAsync(prompt, tk, history, cts.Token)));
        if (history != null) throw AdapterError.Unsupported("adapter: the C# port's StreamAsync takes no history (only a conversation id)");
        var events = new List<JsonNode?>();
        var report = Report(await Handles.WithToolkitAsync(a, tk => client.StreamAsync(prompt, tk,
            ev => { lock (events) events.Add(EventNode(ev)); }, (string?)a["id"], cts.Token)));
        lock (events) report["events"] = new JsonArray(events.ToArray());
        return report;
    }

    // ask(prompt, toolkit, id), or with onText its callback form, the deltas relayed.
    private static async Task<JsonObject> ClientAskAsync(JsonObject a)
    {
        var client = Handles.Client(a);
        var prompt = (string?)a["prompt"] ?? "";
        if ((bool?)a["onText"] != true) return Report(await Handles.WithToolkitAsync(a, tk => client.AskAsync(prompt, tk, (string?)a["id"])));
        var deltas = new List<string>();
        var report = Report(await Handles.WithToolkitAsync(a, tk => client.AskAsync(prompt, tk, (string?)a["id"], d => { lock (deltas) deltas.Add(d); })));
        lock (deltas) report["deltas"] = Json.Strings(deltas);
        return report;
    }

    // A RunResult in the protocol's shape: only what the library returned; null stays null.
    public static JsonObject Report(LlmClient.RunResult? res)
    {
        var calls = res?.ToolCalls?.Select(tc => tc.Name);
        var records = res?.ToolCalls?.Select(tc => (JsonNode?)WithMetadata(new JsonObject { ["name"] = tc.Name, ["args"] = Json.ToNode(tc.Args),
            ["output"] = tc.Output, ["isError"] = tc.IsError }, tc.Metadata));
        var report = new JsonObject { ["text"] = res?.Text, ["turns"] = res?.Turns, ["toolCalls"] = calls == null ? null : Json.Strings(calls),
            ["calls"] = records == null ? null : new JsonArray(records.ToArray()), ["status"] = res?.Status, ["limit"] = res?.Limit,
            ["toolCallCount"] = res?.ToolCallCount, ["messages"] = Json.ToNode(res?.Messages), ["usage"] = Usage(res?.Usage) };
        // the Request the run halted on (§10), as System.Text.Json writes it; absent when none
        if (res?.Pending != null) report["pending"] = Json.ToNode(res.Pending);
        return report;
    }

    public static JsonObject? Usage(LlmClient.Usage? u) => u == null ? null : new JsonObject
        { ["promptTokens"] = u.PromptTokens, ["completionTokens"] = u.CompletionTokens, ["totalTokens"] = u.TotalTokens };

    // {output, isError} (or a RunResult.ToolCalls entry) with the metadata the port gave; none: no key.
    public static JsonObject WithMetadata(JsonObject o, IDictionary<string, object?>? metadata)
    {
        if (metadata != null) o["metadata"] = Json.ToNode(metadata);
        return o;
    }

    // A streamed run's events in the SPEC's names (StreamKind.ToolCall is "tool_call"), each with
    // the fields its kind carries; done carries the RunResult whole, as client.run reports it.
    private static JsonNode EventNode(LlmClient.StreamEvent ev)
    {
        var type = ev.Type switch
        {
            LlmClient.StreamKind.Text => "text", LlmClient.StreamKind.ToolCall => "tool_call",
            LlmClient.StreamKind.ToolResult => "tool_result", LlmClient.StreamKind.Usage => "usage",
            LlmClient.StreamKind.Pending => "pending", LlmClient.StreamKind.Done => "done", _ => ev.Type.ToString(),
        };
        var o = new JsonObject { ["type"] = type };
        switch (type)
        {
            case "text": o["delta"] = ev.Delta; break;
            case "tool_call": o["id"] = ev.Id; o["name"] = ev.Name; o["args"] = Json.ToNode(ev.Args); break;
            case "tool_result": o["id"] = ev.Id; o["name"] = ev.Name; o["output"] = ev.Output; o["isError"] = ev.IsError; break;
            case "pending": o["request"] = Json.ToNode(ev.Request); break;
            case "usage": o["usage"] = Usage(ev.Usage); break;
            case "done": o["result"] = ev.Result == null ? null : Report(ev.Result); break;
        }
        return o;
    }

    // edit: the very body received, edited to equal the answer; else the answer as a new
    // object; null is the port's "unchanged".
    private static Func<IDictionary<string, object?>, IDictionary<string, object?>?> BodyTransform(string client) => body =>
    {
        var (value, inPlace) = Host.Call(BodyTransformSlot, new JsonObject { ["client"] = client, ["body"] = Json.ToNode(body) });
        if (value is not Dictionary<string, object?> want) return null;
        if (!inPlace) return want;
        EditInPlace(body, want);
        return body;
    };

    // A null answer overrides nothing; an object is the port's override with the fields given.
    private static Func<LlmClient.BeforeLLMEvent, LlmClient.LLMOverride?> BeforeLLM(string client) => ev =>
    {
        var (value, _) = Host.Call(BeforeLLMSlot, new JsonObject { ["client"] = client, ["turn"] = ev.Turn,
            ["messages"] = Json.ToNode(ev.Messages), ["tools"] = Json.ToNode(ev.Tools) });
        if (value is not Dictionary<string, object?> o) return null;
        var tools = (o.GetValueOrDefault("tools") as List<object?>)?.Select(t => (Dictionary<string, object?>)t!).ToList();
        return new LlmClient.LLMOverride(o.GetValueOrDefault("messages") as List<object?>, tools);
    };

    // An object, or a list of the same length, found in both at the same key or index is edited
    // in place; anything else is replaced (SPEC.md §3, bodyTransform row).
    private static void EditInPlace(IDictionary<string, object?> target, Dictionary<string, object?> want)
    {
        foreach (var k in target.Keys.Where(key => !want.ContainsKey(key)).ToList()) target.Remove(k);
        foreach (var (k, v) in want) target[k] = target.TryGetValue(k, out var old) ? Merge(old, v) : v;
    }

    private static object? Merge(object? old, object? want)
    {
        if (old is IDictionary<string, object?> o && want is Dictionary<string, object?> w) { EditInPlace(o, w); return o; }
        if (old is not IList l || want is not List<object?> wl || l.Count != wl.Count) return want;
        for (var i = 0; i < l.Count; i++)
            if (Merge(l[i], wl[i]) is var merged && !ReferenceEquals(merged, l[i])) l[i] = merged; // a typed list keeps its elements
        return l;
    }
}
