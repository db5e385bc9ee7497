// The hooks area (upstream SPEC §8 Hooks): LlmClient.Hooks AfterLLM, BeforeTool and AfterTool
// stubs calling back hooks.* (BeforeLLM is the llm area's).
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaHooks : IArea
{
    public const string AfterLLMSlot = "hooks.afterLLM", BeforeToolSlot = "hooks.beforeTool", AfterToolSlot = "hooks.afterTool";

    public void Register(Registry r)
    {
        r.Slot(AfterLLMSlot);
        r.Slot(BeforeToolSlot);
        r.Slot(AfterToolSlot);
        r.ClientOption((client, a, o) =>
        {
            if ((bool?)a["afterLLM"] == true) (o.Hooks ??= new LlmClient.Hooks()).AfterLLM = AfterLLM(client);
            if ((bool?)a["beforeTool"] == true) (o.Hooks ??= new LlmClient.Hooks()).BeforeTool = BeforeTool(client);
            if ((bool?)a["afterTool"] == true) (o.Hooks ??= new LlmClient.Hooks()).AfterTool = AfterTool(client);
        });
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
        var result = AreaLlm.WithMetadata(new JsonObject { ["output"] = ev.Result.Output, ["isError"] = ev.Result.IsError }, ev.Result.Metadata);
        var (value, _) = Host.Call(AfterToolSlot, new JsonObject { ["client"] = client, ["name"] = ev.Name,
            ["args"] = Json.ToNode(ev.Args), ["id"] = ev.Id, ["turn"] = ev.Turn, ["result"] = result });
        return value is Dictionary<string, object?> o && ToResult(o.GetValueOrDefault("result")) is { } r ? LlmClient.ToolOverride.WithResult(r) : null;
    };

    // {output, isError} as the port's ToolResult; with pending (a guard-raised suspension, §10)
    // it carries Metadata {pending: the port's Request}.
    private static ToolResult? ToResult(object? v) => v is Dictionary<string, object?> m ? AreaSuspension.Result(m) : null;
}
