// The suspension area (upstream SPEC §10): client.create's waitFor (Options.WaitFor calling back
// suspension.waitFor), and toolkit.create's suspendingTools, whose ExecuteAsync calls back
// suspension.tool and returns what the runner answered: a suspension (ToolResult.Error(output,
// {pending: the port's Request}), §10's documented shape, which ToolResult.PendingOf reads) or a
// plain result. The port's Request and Answer are records with [JsonPropertyName] and
// WhenWritingNull on the optional keys: they go out as System.Text.Json writes them
// (Json.ToNode) and come in through their init properties.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaSuspension : IArea
{
    public const string WaitForSlot = "suspension.waitFor", ToolSlot = "suspension.tool";

    public void Register(Registry r)
    {
        r.Slot(WaitForSlot);
        r.Slot(ToolSlot);
        r.ClientOption((client, a, o) => { if ((bool?)a["waitFor"] == true) o.WaitFor = WaitFor(client); });
        // after the tools area's extraTools, as the reference adapter adds them
        r.ToolkitTool(1, (toolkit, a) => (a["suspendingTools"] as JsonArray)?.OfType<JsonObject>().Select(e => (ITool)new SuspendingTool(toolkit,
            (string)e["name"]!, (string?)e["description"] ?? "", Json.Arg<Dictionary<string, object?>>(e, "inputSchema") ?? new Dictionary<string, object?>())));
    }

    // The runner's Answer as the port's, or null as given.
    private static Func<Request, Task<Answer>> WaitFor(string client) => request =>
    {
        var (value, _) = Host.Call(WaitForSlot, new JsonObject { ["client"] = client, ["request"] = Json.ToNode(request) });
        return Task.FromResult(AnswerOf(value)!);
    };

    // {output, isError, pending?} as the port's ToolResult; with a pending Request it is a
    // suspension (IsError true, Metadata {pending: the port's Request}).
    public static ToolResult Result(Dictionary<string, object?> o)
    {
        var output = o.GetValueOrDefault("output") as string ?? "";
        return o.GetValueOrDefault("pending") is Dictionary<string, object?> p
            ? ToolResult.Error(output, new Dictionary<string, object?> { ["pending"] = RequestOf(p) })
            : new ToolResult(output, o.GetValueOrDefault("isError") is true);
    }

    // The runner's Request as the port's, with the keys given (absent required ones keep the
    // record's own default, "").
    private static Request RequestOf(Dictionary<string, object?> v) => new()
    {
        Id = v.GetValueOrDefault("id") as string ?? "",
        Kind = v.GetValueOrDefault("kind") as string ?? "",
        Prompt = v.GetValueOrDefault("prompt") as string ?? "",
        Url = v.GetValueOrDefault("url") as string,
        Data = v.GetValueOrDefault("data") as IDictionary<string, object?>,
        ExpiresAt = v.GetValueOrDefault("expiresAt") as string,
    };

    private static Answer? AnswerOf(object? v) => v switch
    {
        null => null,
        Dictionary<string, object?> m => new Answer
        {
            Id = m.GetValueOrDefault("id") as string ?? "",
            Ok = m.GetValueOrDefault("ok") is true,
            Data = m.GetValueOrDefault("data") as IDictionary<string, object?>,
            Reason = m.GetValueOrDefault("reason") as string,
        },
        _ => throw AdapterError.Failed($"adapter: {WaitForSlot} answered {v}, not an Answer object"),
    };

    // A suspendingTools entry (Source custom). The port passes a null ctx on a first call and one
    // carrying the Answer on the retry after WaitFor.
    private sealed record SuspendingTool(string Toolkit, string Name, string Description, IDictionary<string, object?> InputSchema) : ITool
    {
        public string Source => "custom";

        public Task<ToolResult> ExecuteAsync(IDictionary<string, object?> args, ToolContext? ctx = null)
        {
            var call = new JsonObject { ["toolkit"] = Toolkit, ["name"] = Name, ["input"] = Json.ToNode(args) };
            if (ctx?.Answer is { } answer) call["answer"] = Json.ToNode(answer);
            var (value, _) = Host.Call(ToolSlot, call);
            return Task.FromResult(value is Dictionary<string, object?> o ? Result(o)
                : throw AdapterError.Failed($"adapter: {ToolSlot} answered {value}, not an object"));
        }
    }
}
