// Host functions (SPEC.md §3 "Host functions call back"): every function the port receives from
// its host is one stub that writes a callback line on stdout and reads the runner's answer from
// the callback pipe; the runner decides what the function does. Unverified: never compiled.
using System.Collections;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.Win32.SafeHandles;
using Toolnexus;

namespace ConformanceAdapter;

// An ok:false answer: the host function raises it with the runner's text.
public sealed class HostError(string message) : Exception(message);

public static class Host
{
    private static readonly object Gate = new();
    private static long _seq;
    private static StreamReader? _answers;

    // The slots ("<area>.<name>") this adapter installs stubs for, as hello lists them.
    public const string BodyTransformSlot = "llm.bodyTransform", BeforeLLMSlot = "llm.beforeLLM",
        HttpSlot = "transport.http", ToolSlot = "contract.tool";
    public static readonly string[] Slots = [BodyTransformSlot, BeforeLLMSlot, HttpSlot, ToolSlot,
        HookStubs.AfterLLMSlot, HookStubs.BeforeToolSlot, HookStubs.AfterToolSlot, ResilienceStubs.OnErrorSlot,
        SuspensionStubs.WaitForSlot, SuspensionStubs.ToolSlot];

    // One callback at a time per adapter (the lock); the answer is read synchronously, so a host
    // function the port calls synchronously works as well as an async one. The answer returns a
    // value, edits the argument in place, or raises; this port has no suspension, so a suspend is
    // the adapter's fault.
    public static (object? Value, bool InPlace) Call(string fn, JsonObject args)
    {
        lock (Gate)
        {
            var n = ++_seq;
            Program.WriteLine(new JsonObject { ["callback"] = n, ["fn"] = fn, ["args"] = args }.ToJsonString(Json.Out));
            _answers ??= new StreamReader(new FileStream(new SafeFileHandle(CallbackFd(), false), FileAccess.Read), new UTF8Encoding(false));
            var line = _answers.ReadLine() ?? throw AdapterError.Failed($"adapter: the callback pipe closed before the answer to {fn}");
            var answer = JsonNode.Parse(line)!;
            if ((long?)answer["callback"] != n) throw AdapterError.Failed($"adapter: expected the answer to callback {n}, got: {line}");
            var obj = answer.AsObject();
            if (obj.ContainsKey("raise")) throw new HostError((string?)answer["raise"] ?? "");
            if (obj.ContainsKey("suspend")) throw AdapterError.Failed($"adapter: the runner suspended {fn}, which this adapter cannot");
            if (obj.ContainsKey("edit")) return (Json.FromJson(answer["edit"]), true);
            return (Json.FromJson(answer["return"]), false);
        }
    }

    private static IntPtr CallbackFd() =>
        (IntPtr)(int.TryParse(Environment.GetEnvironmentVariable("CONFORMANCE_CALLBACK_FD"), out var fd) ? fd : 3);

    // edit: the very body received, edited to equal the answer; else the answer as a new
    // object; null is the port's "unchanged".
    public static Func<IDictionary<string, object?>, IDictionary<string, object?>?> BodyTransform(string client) => body =>
    {
        var (value, inPlace) = Call(BodyTransformSlot, new JsonObject { ["client"] = client, ["body"] = Json.ToNode(body) });
        if (value is not Dictionary<string, object?> want) return null;
        if (!inPlace) return want;
        EditInPlace(body, want);
        return body;
    };

    // A null answer overrides nothing; an object is the port's override with the fields given.
    public static Func<LlmClient.BeforeLLMEvent, LlmClient.LLMOverride?> BeforeLLM(string client) => ev =>
    {
        var (value, _) = Call(BeforeLLMSlot, new JsonObject { ["client"] = client, ["turn"] = ev.Turn,
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

// An extraTools entry: a host tool whose execute calls back "tool".
public sealed record HostTool(string Toolkit, string Name, string Description, IDictionary<string, object?> InputSchema) : ITool
{
    public string Source => "custom";

    public Task<ToolResult> ExecuteAsync(IDictionary<string, object?> args, ToolContext? ctx = null)
    {
        var (value, _) = Host.Call(Host.ToolSlot, new JsonObject { ["toolkit"] = Toolkit, ["name"] = Name, ["input"] = Json.ToNode(args) });
        return Task.FromResult(ToolResult.Ok(value as string ?? throw AdapterError.Failed($"adapter: tool {Name}: the answer is not a string")));
    }
}

// httpClient "recording": calls back "http" before each request the port's HttpClient carries
// (the port sends with SendAsync), then the default transport sends it.
public sealed class RecordingHandler(string client) : DelegatingHandler(new SocketsHttpHandler())
{
    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        Host.Call(Host.HttpSlot, new JsonObject { ["client"] = client, ["method"] = request.Method.Method, ["url"] = request.RequestUri?.ToString() ?? "" });
        return base.SendAsync(request, cancellationToken);
    }
}

// JSON and the port's value model: Dictionary<string, object?>, List<object?>, string, long,
// double, bool, null.
public static class Json
{
    public static readonly JsonSerializerOptions Out = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    // A protocol value as a fresh tree of the port's model.
    public static object? FromJson(JsonNode? n) => n switch
    {
        JsonObject o => o.ToDictionary(p => p.Key, p => FromJson(p.Value)),
        JsonArray a => a.Select(FromJson).ToList(),
        JsonValue v when v.TryGetValue(out long l) => l,
        JsonValue v when v.TryGetValue(out double d) => d,
        JsonValue v when v.TryGetValue(out bool b) => b,
        JsonValue v => v.GetValue<string>(),
        _ => null,
    };

    // A port value as a new JSON tree (so also a deep copy of it).
    public static JsonNode? ToNode(object? v) => v switch
    {
        null => null,
        JsonNode n => n.DeepClone(),
        JsonElement e => e.ValueKind == JsonValueKind.Undefined ? null : JsonNode.Parse(e.GetRawText()),
        string s => JsonValue.Create(s),
        double d => double.IsFinite(d) ? JsonValue.Create(d) : null,
        IDictionary dict => ToObject(dict),
        IEnumerable items => new JsonArray(items.Cast<object?>().Select(ToNode).ToArray()),
        _ => JsonSerializer.SerializeToNode(v, v.GetType()),
    };

    // foreach over an IDictionary yields DictionaryEntry (its plain IEnumerable may not).
    private static JsonObject ToObject(IDictionary dict)
    {
        var o = new JsonObject();
        foreach (DictionaryEntry entry in dict) o[entry.Key.ToString() ?? ""] = ToNode(entry.Value);
        return o;
    }

    public static JsonArray Strings(IEnumerable<string> items) => new(items.Select(s => (JsonNode?)s).ToArray());

    // An object or array argument in the port's model. Arguments are as the runner validated
    // them against the schema; absent or JSON null is null.
    public static T? Arg<T>(JsonObject a, string name) where T : class => FromJson(a[name]) as T;
}
