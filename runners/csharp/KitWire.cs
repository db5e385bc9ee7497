// The kit's wire to the runner beyond the request loop: the one host-function stub every slot
// goes through (SPEC.md §3 "Host functions call back") and the JSON value model of the port.
using System.Collections;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.Win32.SafeHandles;

namespace ConformanceAdapter;

// An ok:false answer: the host function raises it with the runner's text.
public sealed class HostError(string message) : Exception(message);

public static class Host
{
    private static readonly object Gate = new();
    private static long _seq;
    private static StreamReader? _answers;

    // One callback at a time per adapter (the lock); the answer is read synchronously, so a host
    // function the port calls synchronously works as well as an async one. The answer returns a
    // value, edits the argument in place, or raises; the port has no suspension of a host
    // function, so a suspend is the adapter's fault.
    public static (object? Value, bool InPlace) Call(string fn, JsonObject args)
    {
        lock (Gate)
        {
            var n = ++_seq;
            Kit.WriteLine(new JsonObject { ["callback"] = n, ["fn"] = fn, ["args"] = args }.ToJsonString(Json.Out));
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
