// The mcp area (ADR 0001 gaps 3, 6 and 7; upstream SPEC §2): mcp.load (McpSource.LoadAsync), the
// list-only inventory mcp.list (McpSource.ListMcpToolsAsync), and toolkit.create's mcpConfig.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaMcp : IArea
{
    public void Register(Registry r)
    {
        r.Op("mcp.load", LoadAsync);
        r.Op("mcp.list", ListAsync);
        r.ToolkitOption((_, a, o) => { if (a["mcpConfig"] is JsonObject cfg) o.McpConfig = ConfigValue(cfg); });
    }

    // The port has no separate no-context entry point: context:false is LoadAsync without a
    // token, which carries no limit. The source is disposed before the answer (await using).
    private static async Task<JsonObject> LoadAsync(JsonObject a)
    {
        using var limit = CancelHandle.Arm(a);
        if ((bool?)a["context"] == false && limit != null)
            throw AdapterError.Unsupported("adapter: context:false takes no cancelAfterMs/deadlineMs");
        await using var src = await McpSource.LoadAsync(ConfigValue(a["mcpConfig"]), null, limit?.Token ?? CancellationToken.None);
        return new JsonObject { ["tools"] = AreaTools.Names(src.Tools), ["status"] = Json.ToNode(src.Status) };
    }

    private static async Task<JsonObject> ListAsync(JsonObject a)
    {
        using var limit = CancelHandle.Arm(a);
        var inv = await McpSource.ListMcpToolsAsync(ConfigValue(a["mcpConfig"]), limit?.Token ?? CancellationToken.None);
        var tools = inv?.Tools?.ToDictionary(kv => kv.Key,
            kv => kv.Value?.Select(t => new { name = t.Name, description = t.Description, inputSchema = t.InputSchema }));
        return new JsonObject { ["tools"] = Json.ToNode(tools), ["status"] = Json.ToNode(inv?.Status) };
    }

    // mcpConfig {file} passes the path string, {inline} the parsed dictionary.
    private static object ConfigValue(JsonNode? cfg) =>
        (object?)(string?)cfg?["file"] ?? Json.FromJson(cfg?["inline"])
        ?? throw AdapterError.Failed("adapter: mcpConfig has neither file nor inline");
}
