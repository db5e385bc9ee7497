// The ops of SPEC.md §3 against the toolnexus C# API. Unverified: never compiled (README.md).
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed partial class Adapter
{
    private sealed class ClientEntry(LlmClient client, Recorder rec, CountingHandler? counter, IConversationStore? hostStore)
    {
        public LlmClient Client { get; } = client;
        public Recorder Rec { get; } = rec;
        public CountingHandler? Counter { get; } = counter;
        public IConversationStore? HostStore { get; } = hostStore;
    }

    private readonly Dictionary<string, ClientEntry> _clients = new();
    private readonly Dictionary<string, Toolkit> _toolkits = new();

    private static readonly string[] OpNames =
    [
        "client.ask", "client.create", "client.run", "hello", "mcp.list", "mcp.load", "shutdown",
        "store.get", "store.identity", "store.save", "toolkit.close", "toolkit.create",
    ];

    private Task<JsonObject> DispatchAsync(string op, JsonElement args) => op switch
    {
        "hello" => Task.FromResult(Hello(args)),
        "client.create" => Task.FromResult(ClientCreate(args)),
        "client.run" => ClientRunAsync(args),
        "client.ask" => ClientAskAsync(args),
        "store.get" => StoreGetAsync(args),
        "store.save" => StoreSaveAsync(args),
        "store.identity" => Task.FromResult(StoreIdentity(args)),
        "toolkit.create" => ToolkitCreateAsync(args),
        "toolkit.close" => ToolkitCloseAsync(args),
        "mcp.load" => McpLoadAsync(args),
        "mcp.list" => McpListAsync(args),
        "shutdown" => Task.FromResult(new JsonObject()),
        _ => throw AdapterError.Unsupported($"adapter: unknown op \"{op}\""),
    };

    /// <summary>Disposes every toolkit still open (stdio MCP children), within limit.</summary>
    public async Task CloseAllAsync(TimeSpan limit)
    {
        var all = Task.WhenAll(_toolkits.Values.Select(tk => tk.DisposeAsync().AsTask()));
        _toolkits.Clear();
        await Task.WhenAny(all, Task.Delay(limit));
    }

    // ------------------------------------------------------------------ hello

    private static JsonObject Hello(JsonElement raw)
    {
        Args.Object(raw, "hello");
        var asm = typeof(LlmClient).Assembly;
        var version = asm.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
                      ?? asm.GetName().Version?.ToString() ?? "unknown";
        return new JsonObject
        {
            ["port"] = "csharp",
            ["library"] = "toolnexus",
            ["version"] = version,
            ["runtime"] = RuntimeInformation.FrameworkDescription,
            ["ops"] = new JsonArray(OpNames.Select(n => (JsonNode?)JsonValue.Create(n)).ToArray()),
        };
    }

    // ------------------------------------------------------------------ client

    private JsonObject ClientCreate(JsonElement raw)
    {
        var a = Args.Object(raw, "client.create", "handle", "baseUrl", "style", "model", "apiKey", "systemPrompt",
            "maxTurns", "requestParams", "bodyTransform", "beforeLLM", "httpClient", "store");
        var handle = Args.Required(a, "handle");
        var rec = new Recorder();
        var opts = new LlmClient.Options
        {
            BaseUrl = Args.String(a, "baseUrl") ?? "",
            Style = Args.String(a, "style") ?? "openai",
            Model = Args.String(a, "model") ?? "",
            ApiKey = Args.String(a, "apiKey"),
        };
        if (Args.String(a, "systemPrompt") is string sp) opts.SystemPrompt = sp;
        if (Args.Long(a, "maxTurns") is long mt) opts.MaxTurns = checked((int)mt);
        if (Args.Get(a, "requestParams") is JsonElement rp)
            opts.RequestParams = JsonConv.ToMap(rp, "requestParams");
        if (Args.Get(a, "bodyTransform") is JsonElement bt)
            opts.BodyTransform = HostHooks.BodyTransform(rec, bt);
        if (Args.Get(a, "beforeLLM") is JsonElement bl)
            opts.Hooks = new LlmClient.Hooks { BeforeLLM = HostHooks.BeforeLLM(rec, bl) };

        CountingHandler? counter = null;
        switch (Args.String(a, "httpClient") ?? "default")
        {
            case "default":
                break;
            case "recording":
                counter = new CountingHandler();
                opts.HttpClient = new HttpClient(counter) { Timeout = Timeout.InfiniteTimeSpan };
                break;
            case var other:
                throw AdapterError.Unsupported($"adapter: httpClient \"{other}\"");
        }
        IConversationStore? hostStore = null;
        switch (Args.String(a, "store") ?? "default")
        {
            case "default":
                break;
            case "host":
                hostStore = new InMemoryConversationStore();
                opts.Store = hostStore;
                break;
            case var other:
                throw AdapterError.Unsupported($"adapter: store \"{other}\"");
        }
        _clients[handle] = new ClientEntry(LlmClient.Create(opts), rec, counter, hostStore);
        return new JsonObject();
    }

    private async Task<JsonObject> ClientRunAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "client.run", "client", "toolkit", "prompt", "stream", "history");
        var prompt = Args.String(a, "prompt") ?? "";
        var stream = Args.Bool(a, "stream") ?? false;
        List<object?>? history = null;
        if (Args.Get(a, "history") is JsonElement h)
        {
            if (h.ValueKind != JsonValueKind.Array) throw AdapterError.Failed("adapter: history is not an array");
            history = (List<object?>)JsonConv.FromJson(h)!;
        }
        if (stream && history != null)
            throw AdapterError.Unsupported("adapter: the C# port's StreamAsync takes no history (only a conversation id)");
        return await WithRunAsync(a, (client, tk) => stream
            ? client.StreamAsync(prompt, tk, _ => { })
            : client.RunAsync(prompt, tk, history));
    }

    private async Task<JsonObject> ClientAskAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "client.ask", "client", "toolkit", "prompt", "id");
        var prompt = Args.String(a, "prompt") ?? "";
        var id = Args.Required(a, "id");
        return await WithRunAsync(a, (client, tk) => client.AskAsync(prompt, tk, id));
    }

    /// <summary>Resolves handles, resets the recorders, runs, and builds the run report. With no
    /// toolkit named, an empty one (builtins off) is built for the call and disposed after it.</summary>
    private async Task<JsonObject> WithRunAsync(JsonElement a, Func<LlmClient, Toolkit, Task<LlmClient.RunResult>> run)
    {
        var entry = LookupClient(Args.Required(a, "client"));
        Toolkit? own = null;
        Toolkit tk;
        if (Args.String(a, "toolkit") is string handle) tk = LookupToolkit(handle);
        else tk = own = await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false });
        try
        {
            entry.Rec.Reset();
            var before = entry.Counter?.Count ?? 0;
            var res = await run(entry.Client, tk);
            var (transformSaw, hookSaw) = entry.Rec.Snapshot();
            return new JsonObject
            {
                ["text"] = res.Text ?? "",
                ["turns"] = res.Turns,
                ["toolCalls"] = new JsonArray(res.ToolCalls.Select(tc => (JsonNode?)JsonValue.Create(tc.Name)).ToArray()),
                ["transformSaw"] = transformSaw,
                ["hookSaw"] = hookSaw,
                ["httpRequests"] = (entry.Counter?.Count ?? 0) - before,
            };
        }
        finally
        {
            if (own != null) await own.DisposeAsync();
        }
    }

    // ------------------------------------------------------------------ store

    private async Task<JsonObject> StoreGetAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "store.get", "client", "id");
        var store = LookupClient(Args.Required(a, "client")).Client.ConversationStore()
                    ?? throw AdapterError.Failed("adapter: ConversationStore() returned null");
        var messages = await store.GetAsync(Args.String(a, "id") ?? "");
        return new JsonObject { ["messages"] = messages == null ? null : JsonConv.ToNode(messages) };
    }

    private async Task<JsonObject> StoreSaveAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "store.save", "client", "id", "messages");
        var store = LookupClient(Args.Required(a, "client")).Client.ConversationStore()
                    ?? throw AdapterError.Failed("adapter: ConversationStore() returned null");
        var messages = Args.Get(a, "messages") is JsonElement m && m.ValueKind == JsonValueKind.Array
            ? (List<object?>)JsonConv.FromJson(m)!
            : throw AdapterError.Failed("adapter: messages is not an array");
        await store.SaveAsync(Args.String(a, "id") ?? "", messages);
        return new JsonObject();
    }

    /// <summary>Reference identity of the accessor's store and the one passed as store:"host".</summary>
    private JsonObject StoreIdentity(JsonElement raw)
    {
        var a = Args.Object(raw, "store.identity", "client", "id");
        var entry = LookupClient(Args.Required(a, "client"));
        var same = entry.HostStore != null && ReferenceEquals(entry.Client.ConversationStore(), entry.HostStore);
        return new JsonObject { ["same"] = same };
    }

    // ------------------------------------------------------------------ toolkit

    private async Task<JsonObject> ToolkitCreateAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "toolkit.create", "handle", "mcpConfig", "extraTools", "cancelAfterMs", "deadlineMs");
        var handle = Args.Required(a, "handle");
        var opts = new Toolkit.Options { Builtins = false };
        if (Args.Get(a, "mcpConfig") is JsonElement cfg) opts.McpConfig = McpConfigValue(cfg);
        if (Args.Get(a, "extraTools") is JsonElement extras)
        {
            if (extras.ValueKind != JsonValueKind.Array) throw AdapterError.Failed("adapter: extraTools is not an array");
            opts.ExtraTools = extras.EnumerateArray().Select(HostTool.From).ToList<ITool>();
        }
        using var timing = new Timing(Args.Long(a, "cancelAfterMs"), Args.Long(a, "deadlineMs"));
        var tk = await timing.RunAsync(ct => Toolkit.CreateAsync(opts, ct));
        if (_toolkits.Remove(handle, out var old)) await old.DisposeAsync();
        _toolkits[handle] = tk;
        return new JsonObject
        {
            ["tools"] = Names(tk.Tools()),
            ["status"] = Status(tk.McpStatus()),
        };
    }

    private async Task<JsonObject> ToolkitCloseAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "toolkit.close", "toolkit");
        var handle = Args.Required(a, "toolkit");
        var tk = LookupToolkit(handle);
        _toolkits.Remove(handle);
        await tk.DisposeAsync();
        return new JsonObject();
    }

    // ------------------------------------------------------------------ mcp

    /// <summary>McpSource.LoadAsync with the caller's token; context:false calls it without one
    /// (the C# port has no separate no-context entry point). The source is disposed before answering.</summary>
    private static async Task<JsonObject> McpLoadAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "mcp.load", "mcpConfig", "cancelAfterMs", "deadlineMs", "context");
        var cfg = McpConfigValue(Args.Get(a, "mcpConfig") ?? throw AdapterError.Failed("adapter: mcpConfig missing"));
        using var timing = new Timing(Args.Long(a, "cancelAfterMs"), Args.Long(a, "deadlineMs"));
        McpSource src;
        if (Args.Bool(a, "context") == false)
        {
            if (timing.IsSet)
                throw AdapterError.Unsupported("adapter: context:false takes no cancelAfterMs/deadlineMs");
            src = await McpSource.LoadAsync(cfg);
        }
        else
        {
            src = await timing.RunAsync(ct => McpSource.LoadAsync(cfg, null, ct));
        }
        try
        {
            return new JsonObject { ["tools"] = Names(src.Tools), ["status"] = Status(src.Status) };
        }
        finally
        {
            await src.DisposeAsync();
        }
    }

    private static async Task<JsonObject> McpListAsync(JsonElement raw)
    {
        var a = Args.Object(raw, "mcp.list", "mcpConfig", "cancelAfterMs", "deadlineMs", "context");
        if (Args.Get(a, "context") != null)
            throw AdapterError.Unsupported("adapter: mcp.list takes no context flag");
        var cfg = McpConfigValue(Args.Get(a, "mcpConfig") ?? throw AdapterError.Failed("adapter: mcpConfig missing"));
        using var timing = new Timing(Args.Long(a, "cancelAfterMs"), Args.Long(a, "deadlineMs"));
        var inv = await timing.RunAsync(ct => McpSource.ListMcpToolsAsync(cfg, ct));
        var tools = new JsonObject();
        foreach (var (server, list) in inv.Tools)
        {
            tools[server] = new JsonArray(list.Select(t => (JsonNode?)new JsonObject
            {
                ["name"] = t.Name,
                ["description"] = t.Description ?? "",
                ["inputSchema"] = JsonConv.ToNode(t.InputSchema) ?? new JsonObject(),
            }).ToArray());
        }
        return new JsonObject { ["tools"] = tools, ["status"] = Status(inv.Status) };
    }

    /// <summary>{file: path} gives the path string, {inline: object} the parsed dictionary.</summary>
    private static object McpConfigValue(JsonElement cfg)
    {
        if (cfg.ValueKind != JsonValueKind.Object) throw AdapterError.Failed("adapter: mcpConfig is not an object");
        var file = Args.Get(cfg, "file");
        var inline = Args.Get(cfg, "inline");
        if (cfg.EnumerateObject().Count() != 1 || (file == null) == (inline == null))
            throw AdapterError.Unsupported("adapter: mcpConfig needs exactly one of file or inline");
        if (file is JsonElement f)
            return f.ValueKind == JsonValueKind.String ? f.GetString()! : throw AdapterError.Failed("adapter: mcpConfig.file is not a string");
        return JsonConv.ToMap(inline!.Value, "mcpConfig.inline");
    }

    // ------------------------------------------------------------------ helpers

    private ClientEntry LookupClient(string handle) =>
        _clients.TryGetValue(handle, out var c) ? c : throw AdapterError.Failed($"adapter: unknown client handle {handle}");

    private Toolkit LookupToolkit(string handle) =>
        _toolkits.TryGetValue(handle, out var t) ? t : throw AdapterError.Failed($"adapter: unknown toolkit handle {handle}");

    private static JsonArray Names(IEnumerable<ITool> tools) =>
        new(tools.Select(t => (JsonNode?)JsonValue.Create(t.Name)).ToArray());

    private static JsonObject Status(IReadOnlyDictionary<string, string> status)
    {
        var o = new JsonObject();
        foreach (var (server, state) in status) o[server] = state;
        return o;
    }
}

/// <summary>An extraTools entry: a host tool answering with a fixed output.</summary>
public sealed class HostTool(string name, string description, IDictionary<string, object?> inputSchema, string output) : ITool
{
    public string Name { get; } = name;
    public string Description { get; } = description;
    public IDictionary<string, object?> InputSchema { get; } = inputSchema;
    public string Source => "custom";

    public Task<ToolResult> ExecuteAsync(IDictionary<string, object?> args, ToolContext? ctx = null) =>
        Task.FromResult(ToolResult.Ok(output));

    public static HostTool From(JsonElement e)
    {
        var a = Args.Object(e, "extraTools[]", "name", "description", "inputSchema", "output");
        var schema = Args.Get(a, "inputSchema") is JsonElement s
            ? JsonConv.ToMap(s, "extraTools[].inputSchema")
            : new Dictionary<string, object?>();
        return new HostTool(Args.Required(a, "name"), Args.String(a, "description") ?? "", schema, Args.String(a, "output") ?? "");
    }
}

/// <summary>Counts every request the LLM HttpClient carries.</summary>
public sealed class CountingHandler() : DelegatingHandler(new SocketsHttpHandler())
{
    private long _count;

    public long Count => Interlocked.Read(ref _count);

    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _count);
        return base.SendAsync(request, cancellationToken);
    }

    protected override HttpResponseMessage Send(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _count);
        return base.Send(request, cancellationToken);
    }
}

/// <summary>What one client's hooks saw since the last <see cref="Reset"/>. The port may call
/// hooks from other threads (streaming), hence the lock.</summary>
public sealed class Recorder
{
    private readonly object _gate = new();
    private List<JsonNode?> _transformSaw = [];
    private List<JsonObject> _hookSaw = [];

    public void Reset()
    {
        lock (_gate)
        {
            _transformSaw = [];
            _hookSaw = [];
        }
    }

    public void Transform(IDictionary<string, object?> body)
    {
        var copy = JsonConv.ToNode(body); // a fresh tree: a deep copy of the body as received
        lock (_gate) _transformSaw.Add(copy);
    }

    public void Hook(int turn, int messageCount, int toolCount)
    {
        var seen = new JsonObject { ["turn"] = turn, ["messageCount"] = messageCount, ["toolCount"] = toolCount };
        lock (_gate) _hookSaw.Add(seen);
    }

    public (JsonArray TransformSaw, JsonArray HookSaw) Snapshot()
    {
        lock (_gate)
        {
            return (new JsonArray(_transformSaw.Select(n => n?.DeepClone()).ToArray()),
                new JsonArray(_hookSaw.Select(n => (JsonNode?)n.DeepClone()).ToArray()));
        }
    }
}

/// <summary>The bodyTransform and beforeLLM instructions of client.create.</summary>
public static class HostHooks
{
    /// <summary>Records a deep copy of the body, then returns null (returnNull) or the body edited
    /// as SPEC.md §3 says: delete, set, setNested ({key: {sub: value}}), appendToLastUser (string
    /// content of the last role:user message). Without inPlace the edits go to copies (of the body,
    /// the touched message, the nested object); with inPlace to the very objects received, and the
    /// same body is returned, as a host's in-place rewrite does (A4.4).</summary>
    public static Func<IDictionary<string, object?>, IDictionary<string, object?>?> BodyTransform(Recorder rec, JsonElement spec)
    {
        var a = Args.Object(spec, "bodyTransform", "delete", "set", "setNested", "appendToLastUser", "inPlace", "returnNull");
        var delete = Args.Get(a, "delete") is JsonElement d
            ? d.EnumerateArray().Select(x => x.GetString() ?? "").ToList()
            : new List<string>();
        var set = Args.Get(a, "set") is JsonElement s
            ? (s.ValueKind == JsonValueKind.Object ? s.Clone() : throw AdapterError.Failed("adapter: bodyTransform.set is not an object"))
            : (JsonElement?)null;
        var setNested = Args.Get(a, "setNested") is JsonElement sn
            ? (sn.ValueKind == JsonValueKind.Object && sn.EnumerateObject().All(p => p.Value.ValueKind == JsonValueKind.Object)
                ? sn.Clone()
                : throw AdapterError.Failed("adapter: bodyTransform.setNested is not an object of objects"))
            : (JsonElement?)null;
        var append = Args.String(a, "appendToLastUser");
        var inPlace = Args.Bool(a, "inPlace") ?? false;
        var returnNull = Args.Bool(a, "returnNull") ?? false;
        return body =>
        {
            rec.Transform(body);
            if (returnNull) return null;
            var output = inPlace ? body : new Dictionary<string, object?>(body);
            foreach (var k in delete) output.Remove(k);
            if (set is JsonElement setEl)
                foreach (var p in setEl.EnumerateObject())
                    output[p.Name] = JsonConv.FromJson(p.Value); // decoded afresh per call
            if (setNested is JsonElement nestedEl)
            {
                foreach (var p in nestedEl.EnumerateObject())
                {
                    output.TryGetValue(p.Name, out var old);
                    IDictionary<string, object?> obj;
                    if (old is IDictionary<string, object?> oldMap)
                        obj = inPlace ? oldMap : new Dictionary<string, object?>(oldMap);
                    else
                        obj = new Dictionary<string, object?>();
                    foreach (var sub in p.Value.EnumerateObject())
                        obj[sub.Name] = JsonConv.FromJson(sub.Value); // decoded afresh per call
                    if (!ReferenceEquals(obj, old)) output[p.Name] = obj;
                }
            }
            if (append != null && output.TryGetValue("messages", out var msgs))
            {
                if (inPlace)
                    AppendInPlace(msgs, append);
                else
                    output["messages"] = EditLastUser(msgs, c => c is string str ? str + append : c);
            }
            return output;
        };
    }

    /// <summary>inPlace appendToLastUser: the last role:user message's own dictionary gets the
    /// suffix on its string content; the list and the message are the port's very objects.</summary>
    private static void AppendInPlace(object? messages, string append)
    {
        if (messages is string || messages is not System.Collections.IEnumerable items) return;
        IDictionary<string, object?>? last = null;
        foreach (var m in items)
        {
            if (m is IDictionary<string, object?> msg
                && msg.TryGetValue("role", out var role) && Convert.ToString(role) == "user")
                last = msg;
        }
        if (last != null && last.TryGetValue("content", out var content) && content is string str)
            last["content"] = str + append;
    }

    /// <summary>Records {turn, messageCount, toolCount}; overrides messages (setLastUserContent)
    /// and/or tools (when the field is present, even []); returns null when neither is asked.</summary>
    public static Func<LlmClient.BeforeLLMEvent, LlmClient.LLMOverride?> BeforeLLM(Recorder rec, JsonElement spec)
    {
        var a = Args.Object(spec, "beforeLLM", "setLastUserContent", "tools");
        var setLast = Args.String(a, "setLastUserContent");
        JsonElement? tools = null;
        if (Args.Get(a, "tools") is JsonElement t)
        {
            if (t.ValueKind != JsonValueKind.Array || t.EnumerateArray().Any(x => x.ValueKind != JsonValueKind.Object))
                throw AdapterError.Unsupported("adapter: beforeLLM.tools must be an array of objects");
            tools = t.Clone();
        }
        return ev =>
        {
            rec.Hook(ev.Turn, ev.Messages?.Count ?? 0, ev.Tools?.Count ?? 0);
            List<object?>? messages = setLast != null && ev.Messages != null
                ? (List<object?>)EditLastUser(ev.Messages, _ => setLast)!
                : null;
            List<Dictionary<string, object?>>? toolList = tools is JsonElement te
                ? te.EnumerateArray().Select(x => (Dictionary<string, object?>)JsonConv.FromJson(x)!).ToList()
                : null;
            if (messages == null && toolList == null) return null;
            return new LlmClient.LLMOverride(messages, toolList);
        };
    }

    /// <summary>A new list whose last role:user message is a copy with content edited; the port's
    /// own list and message are left as they were. Non-list input is returned as is.</summary>
    private static object? EditLastUser(object? messages, Func<object?, object?> edit)
    {
        if (messages is string || messages is not System.Collections.IEnumerable items) return messages;
        var copy = new List<object?>();
        foreach (var m in items) copy.Add(m);
        for (var i = copy.Count - 1; i >= 0; i--)
        {
            if (copy[i] is IDictionary<string, object?> msg
                && msg.TryGetValue("role", out var role) && Convert.ToString(role) == "user")
            {
                var edited = new Dictionary<string, object?>(msg);
                edited.TryGetValue("content", out var content);
                edited["content"] = edit(content);
                copy[i] = edited;
                break;
            }
        }
        return copy;
    }
}
