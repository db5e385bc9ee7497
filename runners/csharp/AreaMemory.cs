// The memory area (upstream SPEC §8 Conversation): the port's Conversation (NewConversation), with
// an empty toolkit when none is named; send reports as client.run does.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaMemory : IArea
{
    private readonly HandleTable<LlmClient.Conversation> _conversations = new("conversation");

    public void Register(Registry r)
    {
        r.Op("conversation.create", async a =>
        {
            var tk = (string?)a["toolkit"] is string named ? Handles.Toolkits[named]
                : await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false });
            _conversations.Set((string)a["handle"]!, Handles.Client(a).NewConversation(tk));
            return new JsonObject();
        });
        r.Op("conversation.send", async a => AreaLlm.Report(await Conversation(a).SendAsync((string?)a["prompt"] ?? "")));
        r.Op("conversation.reset", a =>
        {
            Conversation(a).Reset();
            return new JsonObject();
        });
        r.Op("conversation.messages", a => new JsonObject { ["messages"] = Json.ToNode(Conversation(a).Messages) });
    }

    private LlmClient.Conversation Conversation(JsonObject a) => _conversations[(string?)a["conversation"]];
}
