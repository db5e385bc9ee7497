using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

// The hooks area: LlmClient.Hooks AfterLLM, BeforeTool and AfterTool stubs calling back hooks.*
// (upstream SPEC §8 Hooks; BeforeLLM is the llm area's, in Host.cs). Written to the port's
// documented API; not compiled here (no .NET on this machine).
public static class HookStubs
{
    public const string AfterLLMSlot = "hooks.afterLLM", BeforeToolSlot = "hooks.beforeTool", AfterToolSlot = "hooks.afterTool";

    // The hooks client.create asked for, beforeLLM included; null when none.
    public static LlmClient.Hooks? For(string client, JsonObject a)
    {
        bool On(string k) => (bool?)a[k] == true;
        if (!On("beforeLLM") && !On("afterLLM") && !On("beforeTool") && !On("afterTool")) return null;
        return new LlmClient.Hooks
        {
            BeforeLLM = On("beforeLLM") ? Host.BeforeLLM(client) : null,
            AfterLLM = On("afterLLM") ? AfterLLM(client) : null,
            BeforeTool = On("beforeTool") ? BeforeTool(client) : null,
            AfterTool = On("afterTool") ? AfterTool(client) : null,
        };
    }

    private static Action<LlmClient.AfterLLMEvent> AfterLLM(string client) => ev =>
        Host.Call(AfterLLMSlot, new JsonObject { ["client"] = client, ["turn"] = ev.Turn, ["model"] = ev.Model, ["response"] = Json.ToNode(ev.Response) });

    private static Func<LlmClient.BeforeToolEvent, LlmClient.ToolOverride?> BeforeTool(string client) => ev =>
    {
        var (value, _) = Host.Call(BeforeToolSlot, new JsonObject { ["client"] = client, ["name"] = ev.Name,
            ["args"] = Json.ToNode(ev.Args), ["id"] = ev.Id, ["turn"] = ev.Turn });
        if (value is not Dictionary<string, object?> o) return null;
        return ToResult(o.GetValueOrDefault("result")) is { } r ? LlmClient.ToolOverride.WithResult(r)
            : o.GetValueOrDefault("args") is Dictionary<string, object?> args ? LlmClient.ToolOverride.WithArgs(args) : null;
    };

    private static Func<LlmClient.AfterToolEvent, LlmClient.ToolOverride?> AfterTool(string client) => ev =>
    {
        var result = new JsonObject { ["output"] = ev.Result.Output, ["isError"] = ev.Result.IsError };
        if (ev.Result.Metadata != null) result["metadata"] = Json.ToNode(ev.Result.Metadata);
        var (value, _) = Host.Call(AfterToolSlot, new JsonObject { ["client"] = client, ["name"] = ev.Name,
            ["args"] = Json.ToNode(ev.Args), ["id"] = ev.Id, ["turn"] = ev.Turn, ["result"] = result });
        return value is Dictionary<string, object?> o && ToResult(o.GetValueOrDefault("result")) is { } r ? LlmClient.ToolOverride.WithResult(r) : null;
    };

    // {output, isError} as the port's ToolResult; with pending (a guard-raised suspension, §10)
    // it carries Metadata {pending: the port's Request}.
    private static ToolResult? ToResult(object? v) => v is Dictionary<string, object?> m ? SuspensionStubs.Result(m) : null;
}
