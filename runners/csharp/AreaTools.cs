// The tools area (upstream SPEC §1, §4A-§6): toolkit.create with the options every area adds,
// toolkit.close, toolkit.describe, tool.execute, the schema adapters, sanitize, and the
// extraTools a toolkit is built with: host tools calling back contract.tool, native tools
// (NativeTool.Of) and http tools (HttpTool.Of).
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaTools : IArea
{
    public const string ToolSlot = "contract.tool";

    public void Register(Registry r)
    {
        r.Slot(ToolSlot);
        r.Op("toolkit.create", a => CreateAsync(r, a));
        r.Op("toolkit.close", async a =>
        {
            await Handles.Toolkit(a).DisposeAsync();
            Handles.Toolkits.Take((string)a["toolkit"]!);
            return new JsonObject();
        });
        r.Op("toolkit.describe", Describe);
        r.Op("tool.execute", async a =>
        {
            // args absent (or JSON null) is null, the port's own default then
            var res = await Handles.Toolkit(a).ExecuteAsync((string)a["name"]!, Json.Arg<Dictionary<string, object?>>(a, "args"));
            return AreaLlm.WithMetadata(new JsonObject { ["output"] = res.Output, ["isError"] = res.IsError }, res.Metadata);
        });
        r.Op("adapters", a =>
        {
            var tk = Handles.Toolkit(a);
            return new JsonObject { ["openai"] = Json.ToNode(tk.ToOpenAI()), ["anthropic"] = Json.ToNode(tk.ToAnthropic()), ["gemini"] = Json.ToNode(tk.ToGemini()) };
        });
        r.Op("sanitize", a => new JsonObject { ["value"] = Tools.Sanitize((string?)a["value"]) });
        r.ToolkitTool(0, (toolkit, a) => (a["extraTools"] as JsonArray)?.OfType<JsonObject>().Select(e => ExtraTool(toolkit, e)));
    }

    private static async Task<JsonObject> CreateAsync(Registry r, JsonObject a)
    {
        var handle = (string)a["handle"]!;
        // builtins as given, a bool or a dictionary (absent: off); builtinsDefault: none at all
        var opts = new Toolkit.Options { Builtins = (bool?)a["builtinsDefault"] == true ? null : a["builtins"] is JsonNode b ? Json.FromJson(b) : false };
        r.ApplyToolkitOptions(handle, a, opts);
        using var limit = CancelHandle.Arm(a);
        var tk = await Toolkit.CreateAsync(opts, limit?.Token ?? CancellationToken.None);
        if (Handles.Toolkits.Take(handle) is { } old) await old.DisposeAsync();
        Handles.Toolkits.Set(handle, tk);
        return new JsonObject { ["tools"] = Names(tk.Tools()), ["status"] = Json.ToNode(tk.McpStatus()) };
    }

    // The library's own tool list, in its order, and the MCP status.
    private static JsonObject Describe(JsonObject a)
    {
        var tk = Handles.Toolkit(a);
        var tools = tk.Tools()?.Select(t => (JsonNode?)new JsonObject { ["name"] = t.Name, ["description"] = t.Description,
            ["inputSchema"] = Json.ToNode(t.InputSchema), ["source"] = t.Source });
        return new JsonObject { ["tools"] = tools == null ? null : new JsonArray(tools.ToArray()), ["status"] = Json.ToNode(tk.McpStatus()) };
    }

    public static JsonArray? Names(IEnumerable<ITool>? tools) => tools == null ? null : Json.Strings(tools.Select(t => t.Name));

    // An extraTools entry by its kind: host (the default), native or http.
    private static ITool ExtraTool(string toolkit, JsonObject e) => (string?)e["kind"] switch
    {
        "native" => NativeToolOf(toolkit, e),
        "http" => HttpToolOf(e),
        _ => new HostTool(toolkit, (string)e["name"]!, (string?)e["description"] ?? "",
            Json.Arg<Dictionary<string, object?>>(e, "inputSchema") ?? new Dictionary<string, object?>()),
    };

    // NativeTool.Of(name, description, schema or null, fn): fn calls back and returns the answer's
    // value in the port's model (string, Dictionary, List, long, double, bool, null), or for
    // returns "result" a ToolResult; an ok:false answer throws HostError, which the port maps.
    private static ITool NativeToolOf(string toolkit, JsonObject e)
    {
        var name = (string)e["name"]!;
        var result = (string?)e["returns"] == "result";
        return NativeTool.Of(name, (string?)e["description"] ?? "", Json.Arg<Dictionary<string, object?>>(e, "inputSchema"), args =>
        {
            var (value, _) = Host.Call(ToolSlot, new JsonObject { ["toolkit"] = toolkit, ["name"] = name, ["input"] = Json.ToNode(args) });
            if (!result) return value;
            var r = (Dictionary<string, object?>)value!;
            return new ToolResult((string)r["output"]!, (bool)r["isError"]!, r.GetValueOrDefault("metadata") as IDictionary<string, object?>);
        });
    }

    // HttpTool.Of(Options) with only the fields given set; timeoutMs is the port's Timeout (ms).
    private static ITool HttpToolOf(JsonObject e)
    {
        var o = new HttpTool.Options { Name = (string)e["name"]!, Description = (string?)e["description"] ?? "" };
        if (e["method"] is JsonNode method) o.Method = (string)method!;
        if (e["url"] is JsonNode url) o.Url = (string)url!;
        if (e["headers"] is JsonObject headers) o.Headers = headers.ToDictionary(p => p.Key, p => (string)p.Value!);
        if (e["query"] is JsonArray query) o.Query = query.Select(q => (string)q!).ToList();
        if (e["body"] is JsonNode body) o.Body = (string)body!;
        if (e["inputSchema"] is JsonObject) o.InputSchema = Json.Arg<Dictionary<string, object?>>(e, "inputSchema");
        if ((long?)e["timeoutMs"] is long ms) o.Timeout = ms;
        if (e["resultMode"] is JsonNode mode) o.ResultMode = (string)mode!;
        return HttpTool.Of(o);
    }

    // A host tool: its execute calls back contract.tool and returns the answer's string.
    private sealed record HostTool(string Toolkit, string Name, string Description, IDictionary<string, object?> InputSchema) : ITool
    {
        public string Source => "custom";

        public Task<ToolResult> ExecuteAsync(IDictionary<string, object?> args, ToolContext? ctx = null)
        {
            var (value, _) = Host.Call(ToolSlot, new JsonObject { ["toolkit"] = Toolkit, ["name"] = Name, ["input"] = Json.ToNode(args) });
            return Task.FromResult(ToolResult.Ok(value as string ?? throw AdapterError.Failed($"adapter: tool {Name}: the answer is not a string")));
        }
    }
}
