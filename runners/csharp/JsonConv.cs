// JSON <-> the port's value model (Dictionary<string, object?>, List<object?>, string, long,
// double, bool, null), and strict argument access. Unverified: never compiled (README.md).
using System.Text.Json;
using System.Text.Json.Nodes;

namespace ConformanceAdapter;

public static class JsonConv
{
    /// <summary>A protocol value as the port's plain CLR model; always a fresh tree.</summary>
    public static object? FromJson(JsonElement e)
    {
        switch (e.ValueKind)
        {
            case JsonValueKind.Object:
                var obj = new Dictionary<string, object?>();
                foreach (var p in e.EnumerateObject()) obj[p.Name] = FromJson(p.Value);
                return obj;
            case JsonValueKind.Array:
                var list = new List<object?>();
                foreach (var item in e.EnumerateArray()) list.Add(FromJson(item));
                return list;
            case JsonValueKind.String:
                return e.GetString();
            case JsonValueKind.Number:
                return e.TryGetInt64(out var l) ? l : e.GetDouble();
            case JsonValueKind.True:
                return true;
            case JsonValueKind.False:
                return false;
            default:
                return null;
        }
    }

    /// <summary>A JSON object argument as a dictionary.</summary>
    public static Dictionary<string, object?> ToMap(JsonElement e, string what) =>
        e.ValueKind == JsonValueKind.Object
            ? (Dictionary<string, object?>)FromJson(e)!
            : throw AdapterError.Failed($"adapter: {what} is not an object");

    /// <summary>A port value as a new JSON tree (so also a deep copy of it).</summary>
    public static JsonNode? ToNode(object? v)
    {
        switch (v)
        {
            case null:
                return null;
            case JsonNode n:
                return n.DeepClone();
            case JsonElement je:
                return je.ValueKind == JsonValueKind.Undefined ? null : JsonNode.Parse(je.GetRawText());
            case string s:
                return JsonValue.Create(s);
            case char c:
                return JsonValue.Create(c.ToString());
            case bool b:
                return JsonValue.Create(b);
            case int or long or short or sbyte or byte or ushort or uint:
                return JsonValue.Create(Convert.ToInt64(v));
            case ulong ul:
                return JsonValue.Create(ul);
            case decimal m:
                return JsonValue.Create(m);
            case double d:
                return double.IsFinite(d) ? JsonValue.Create(d) : null;
            case float f:
                return float.IsFinite(f) ? JsonValue.Create((double)f) : null;
            case IDictionary<string, object?> dict:
            {
                var o = new JsonObject();
                foreach (var (k, val) in dict) o[k] = ToNode(val);
                return o;
            }
            case IReadOnlyDictionary<string, object?> rdict:
            {
                var o = new JsonObject();
                foreach (var (k, val) in rdict) o[k] = ToNode(val);
                return o;
            }
            case System.Collections.IDictionary idict:
            {
                var o = new JsonObject();
                foreach (System.Collections.DictionaryEntry entry in idict) o[entry.Key.ToString() ?? ""] = ToNode(entry.Value);
                return o;
            }
            case System.Collections.IEnumerable items:
            {
                var a = new JsonArray();
                foreach (var item in items) a.Add(ToNode(item));
                return a;
            }
            default:
                try
                {
                    return JsonSerializer.SerializeToNode(v, v.GetType());
                }
                catch (Exception)
                {
                    return JsonValue.Create(v.ToString());
                }
        }
    }
}

/// <summary>Argument access. A field the op does not know is an argument this adapter cannot
/// express: "unsupported". JSON null reads as absent.</summary>
public static class Args
{
    private static readonly JsonElement EmptyObject = JsonDocument.Parse("{}").RootElement.Clone();

    public static JsonElement Object(JsonElement args, string op, params string[] allowed)
    {
        if (args.ValueKind is JsonValueKind.Undefined or JsonValueKind.Null) return EmptyObject;
        if (args.ValueKind != JsonValueKind.Object) throw AdapterError.Failed($"adapter: {op}: args is not an object");
        foreach (var p in args.EnumerateObject())
            if (Array.IndexOf(allowed, p.Name) < 0)
                throw AdapterError.Unsupported($"adapter: {op}: unknown argument \"{p.Name}\"");
        return args;
    }

    public static JsonElement? Get(JsonElement o, string name) =>
        o.TryGetProperty(name, out var v) && v.ValueKind != JsonValueKind.Null ? v : null;

    public static string? String(JsonElement o, string name)
    {
        if (Get(o, name) is not JsonElement v) return null;
        return v.ValueKind == JsonValueKind.String ? v.GetString() : throw AdapterError.Failed($"adapter: {name} is not a string");
    }

    public static string Required(JsonElement o, string name) =>
        String(o, name) ?? throw AdapterError.Failed($"adapter: {name} is missing");

    public static long? Long(JsonElement o, string name)
    {
        if (Get(o, name) is not JsonElement v) return null;
        if (v.ValueKind == JsonValueKind.Number && v.TryGetInt64(out var l)) return l;
        throw AdapterError.Failed($"adapter: {name} is not an integer");
    }

    public static bool? Bool(JsonElement o, string name)
    {
        if (Get(o, name) is not JsonElement v) return null;
        return v.ValueKind switch
        {
            JsonValueKind.True => true,
            JsonValueKind.False => false,
            _ => throw AdapterError.Failed($"adapter: {name} is not a boolean"),
        };
    }
}
