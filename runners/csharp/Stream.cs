using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

// A streamed run's events in the SPEC's names (StreamKind.ToolCall is "tool_call"), each with
// the fields its kind carries. Written to the port's documented API; not compiled here.
public sealed partial class Adapter
{
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
            case "usage":
                o["usage"] = ev.Usage == null ? null : new JsonObject { ["promptTokens"] = ev.Usage.PromptTokens,
                    ["completionTokens"] = ev.Usage.CompletionTokens, ["totalTokens"] = ev.Usage.TotalTokens };
                break;
            case "done":
                var result = ev.Result == null ? null : new JsonObject { ["text"] = ev.Result.Text, ["turns"] = ev.Result.Turns,
                    ["status"] = ev.Result.Status, ["limit"] = ev.Result.Limit, ["toolCallCount"] = ev.Result.ToolCallCount };
                if (ev.Result?.Pending != null) result!["pending"] = Json.ToNode(ev.Result.Pending); // absent when none
                o["result"] = result;
                break;
        }
        return o;
    }
}
