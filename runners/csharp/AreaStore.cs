// The store area (ADR 0001 gap 4): client.create's store "host" (a new InMemoryConversationStore
// passed as Options.Store), and store.get, store.save and store.identity on the accessor
// ConversationStore().
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaStore : IArea
{
    // The store each client was given as store:"host", by client handle.
    private readonly Dictionary<string, IConversationStore> _hostStores = new();

    public void Register(Registry r)
    {
        r.ClientOption((handle, a, o) =>
        {
            _hostStores.Remove(handle);
            if ((string?)a["store"] != "host") return; // null: the port's default store
            o.Store = _hostStores[handle] = new InMemoryConversationStore();
        });
        r.Op("store.get", async a => new JsonObject
        {
            ["messages"] = Json.ToNode(await Handles.Client(a).ConversationStore().GetAsync((string?)a["id"] ?? "")),
        });
        r.Op("store.save", async a =>
        {
            var messages = Json.Arg<List<object?>>(a, "messages") ?? throw AdapterError.Failed("adapter: messages is missing");
            await Handles.Client(a).ConversationStore().SaveAsync((string?)a["id"] ?? "", messages);
            return new JsonObject();
        });
        // Reference identity of the accessor's store and the one passed as store:"host".
        r.Op("store.identity", a =>
        {
            var client = Handles.Client(a);
            return new JsonObject { ["same"] = _hostStores.TryGetValue((string)a["client"]!, out var host) && ReferenceEquals(client.ConversationStore(), host) };
        });
    }
}
