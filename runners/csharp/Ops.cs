// The ops of SPEC.md §3 against the toolnexus C# API. Unverified: never compiled (README.md).
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed partial class Adapter
{
    private sealed record ClientEntry(LlmClient Client, IConversationStore? HostStore)
    {
        // Reference identity of the accessor's store and the one passed as store:"host".
        public bool SameStore => HostStore != null && ReferenceEquals(Client.ConversationStore(), HostStore);
    }

    private readonly Dictionary<string, ClientEntry> _clients = new();
    private readonly Dictionary<string, Toolkit> _toolkits = new();

    private static readonly string[] OpNames = ["adapters", "client.ask", "client.create", "client.run", "client.translate",
        "conversation.create", "conversation.messages", "conversation.reset", "conversation.send", "hello", "mcp.list",
        "mcp.load", "sanitize", "shutdown", "skills.list", "store.get", "store.identity", "store.save", "tool.execute",
        "toolkit.close", "toolkit.create", "toolkit.describe", "toolkit.skillsPrompt"];

    public Task<JsonObject> DispatchAsync(string op, JsonObject a) => op switch
    {
        "hello" => Task.FromResult(Hello()),
        "client.create" => Task.FromResult(ClientCreate(a)),
        "client.run" => ClientRunAsync(a),
        "client.ask" => ClientAskAsync(a),
        "client.translate" => ClientTranslateAsync(a),
        "conversation.create" => ConversationCreateAsync(a),
        "conversation.send" => ConversationSendAsync(a),
        "conversation.reset" => Task.FromResult(ConversationReset(a)),
        "conversation.messages" => Task.FromResult(new JsonObject { ["messages"] = Json.ToNode(LookupConversation(a).Messages) }),
        "store.get" => StoreGetAsync(a),
        "store.save" => StoreSaveAsync(a),
        "store.identity" => Task.FromResult(new JsonObject { ["same"] = LookupClient(a).SameStore }),
        "toolkit.create" => ToolkitCreateAsync(a),
        "toolkit.close" => ToolkitCloseAsync(a),
        "mcp.load" => McpLoadAsync(a),
        "mcp.list" => McpListAsync(a),
        "toolkit.describe" => Task.FromResult(Describe(a)),
        "tool.execute" => ToolExecuteAsync(a),
        "adapters" => Task.FromResult(SchemaAdapters(a)),
        "sanitize" => Task.FromResult(new JsonObject { ["value"] = Tools.Sanitize((string?)a["value"]) }),
        "toolkit.skillsPrompt" => Task.FromResult(new JsonObject { ["prompt"] = LookupToolkit((string)a["toolkit"]!).SkillsPrompt() }),
        "skills.list" => Task.FromResult(SkillsList(a)),
        "shutdown" => Task.FromResult(new JsonObject()),
        _ => throw AdapterError.Unsupported($"adapter: unknown op \"{op}\""),
    };

    // Disposes every toolkit still open (stdio MCP children), within limit.
    public async Task CloseAllAsync(TimeSpan limit)
    {
        var all = Task.WhenAll(_toolkits.Values.Select(tk => tk.DisposeAsync().AsTask()));
        _toolkits.Clear();
        await Task.WhenAny(all, Task.Delay(limit));
    }

    private static JsonObject Hello()
    {
        var asm = typeof(LlmClient).Assembly;
        var version = asm.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? asm.GetName().Version?.ToString();
        return new JsonObject { ["port"] = "csharp", ["library"] = "toolnexus", ["version"] = version ?? "unknown",
            ["runtime"] = RuntimeInformation.FrameworkDescription, ["ops"] = Json.Strings(OpNames), ["slots"] = Json.Strings(Host.Slots) };
    }

    private JsonObject ClientCreate(JsonObject a)
    {
        var handle = (string)a["handle"]!;
        var hostStore = (string?)a["store"] == "host" ? new InMemoryConversationStore() : null;
        var opts = new LlmClient.Options
        {
            BaseUrl = (string?)a["baseUrl"] ?? "",
            Style = (string?)a["style"] ?? "openai",
            Model = (string?)a["model"] ?? "",
            ApiKey = (string?)a["apiKey"],
            SystemPrompt = (string?)a["systemPrompt"],
            MaxTurns = (int?)a["maxTurns"],
            RequestParams = Json.Arg<Dictionary<string, object?>>(a, "requestParams"),
            BodyTransform = (bool?)a["bodyTransform"] == true ? Host.BodyTransform(handle) : null,
            Hooks = HookStubs.For(handle, a),
            WaitFor = SuspensionStubs.WaitFor(handle, a), // null: no waitFor at all
            Store = hostStore, // null: the port's default store
        };
        // The port takes the HttpClient whole, so its own timeout travels with it (G2.1).
        if ((string?)a["httpClient"] == "recording")
            opts.HttpClient = new HttpClient(new RecordingHandler(handle)) { Timeout =
                (long?)a["httpTimeoutMs"] is long ms ? TimeSpan.FromMilliseconds(ms) : Timeout.InfiniteTimeSpan };
        ResilienceStubs.Apply(handle, a, opts);
        _clients[handle] = new ClientEntry(LlmClient.Create(opts), hostStore);
        return new JsonObject();
    }

    // cancelAfterMs is a CancellationTokenSource cancelling after that long, the port's external
    // cancel; a stream with an id is StreamAsync's id.
    private async Task<JsonObject> ClientRunAsync(JsonObject a)
    {
        var prompt = (string?)a["prompt"] ?? "";
        var history = Json.Arg<List<object?>>(a, "history");
        using var cts = new CancellationTokenSource();
        if ((long?)a["cancelAfterMs"] is long ms) cts.CancelAfter(TimeSpan.FromMilliseconds(ms));
        if ((bool?)a["stream"] != true) return await RunReportAsync(a, (c, tk) => c.RunAsync(prompt, tk, history, cts.Token));
        if (history != null) throw AdapterError.Unsupported("adapter: the C# port's StreamAsync takes no history (only a conversation id)");
        var events = new List<JsonNode?>();
        var report = await RunReportAsync(a, (c, tk) => c.StreamAsync(prompt, tk, ev => { lock (events) events.Add(EventNode(ev)); },
            (string?)a["id"], cts.Token));
        lock (events) report["events"] = new JsonArray(events.ToArray());
        return report;
    }

    // ask(prompt, toolkit, id), or with onText its callback form, the deltas relayed.
    private async Task<JsonObject> ClientAskAsync(JsonObject a)
    {
        if ((bool?)a["onText"] != true) return await RunReportAsync(a, (c, tk) => c.AskAsync((string?)a["prompt"] ?? "", tk, (string?)a["id"]));
        var deltas = new List<string>();
        var report = await RunReportAsync(a, (c, tk) => c.AskAsync((string?)a["prompt"] ?? "", tk, (string?)a["id"], d => { lock (deltas) deltas.Add(d); }));
        lock (deltas) report["deltas"] = Json.Strings(deltas);
        return report;
    }

    // The memory area: the port's Conversation (NewConversation), with an empty toolkit when none is named.
    private readonly Dictionary<string, LlmClient.Conversation> _conversations = new();

    private async Task<JsonObject> ConversationCreateAsync(JsonObject a)
    {
        var named = (string?)a["toolkit"];
        var tk = named == null ? await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false }) : LookupToolkit(named);
        _conversations[(string)a["handle"]!] = LookupClient(a).Client.NewConversation(tk);
        return new JsonObject();
    }

    private async Task<JsonObject> ConversationSendAsync(JsonObject a) =>
        Report(await LookupConversation(a).SendAsync((string?)a["prompt"] ?? ""));

    private JsonObject ConversationReset(JsonObject a)
    {
        LookupConversation(a).Reset();
        return new JsonObject();
    }

    private LlmClient.Conversation LookupConversation(JsonObject a) =>
        _conversations.TryGetValue((string?)a["conversation"] ?? "", out var cv) ? cv
            : throw AdapterError.Failed($"adapter: unknown conversation handle {(string?)a["conversation"]}");

    // Runs with the named toolkit, or an empty one (builtins off) built for the call, as the
    // port's run methods need a Toolkit. Only what the library returned: null stays null.
    private async Task<JsonObject> RunReportAsync(JsonObject a, Func<LlmClient, Toolkit, Task<LlmClient.RunResult>> run)
    {
        var client = LookupClient(a).Client;
        var named = (string?)a["toolkit"];
        await using var own = named == null ? await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false }) : null;
        return Report(await run(client, own ?? LookupToolkit(named!)));
    }

    // A RunResult in the protocol's shape; null stays null.
    private static JsonObject Report(LlmClient.RunResult? res)
    {
        var calls = res?.ToolCalls?.Select(tc => tc.Name);
        var records = res?.ToolCalls?.Select(tc => (JsonNode?)Result(new JsonObject { ["name"] = tc.Name, ["args"] = Json.ToNode(tc.Args),
            ["output"] = tc.Output, ["isError"] = tc.IsError }, tc.Metadata));
        var report = new JsonObject { ["text"] = res?.Text, ["turns"] = res?.Turns, ["toolCalls"] = calls == null ? null : Json.Strings(calls),
            ["calls"] = records == null ? null : new JsonArray(records.ToArray()), ["status"] = res?.Status, ["limit"] = res?.Limit,
            ["toolCallCount"] = res?.ToolCallCount, ["messages"] = Json.ToNode(res?.Messages), ["usage"] = res?.Usage == null ? null : new JsonObject {
                ["promptTokens"] = res.Usage.PromptTokens, ["completionTokens"] = res.Usage.CompletionTokens, ["totalTokens"] = res.Usage.TotalTokens } };
        // the Request the run halted on (§10), as System.Text.Json writes it; absent when none
        if (res?.Pending != null) report["pending"] = Json.ToNode(res.Pending);
        return report;
    }

    // {output, isError} (or a RunResult.ToolCalls entry) with the metadata the port gave; none: no key.
    private static JsonObject Result(JsonObject o, IDictionary<string, object?>? metadata)
    {
        if (metadata != null) o["metadata"] = Json.ToNode(metadata);
        return o;
    }

    // The library's own tool list, in its order, and the MCP status.
    private JsonObject Describe(JsonObject a)
    {
        var tk = LookupToolkit((string)a["toolkit"]!);
        var tools = tk.Tools()?.Select(t => (JsonNode?)new JsonObject { ["name"] = t.Name, ["description"] = t.Description,
            ["inputSchema"] = Json.ToNode(t.InputSchema), ["source"] = t.Source });
        return new JsonObject { ["tools"] = tools == null ? null : new JsonArray(tools.ToArray()), ["status"] = Json.ToNode(tk.McpStatus()) };
    }

    // Toolkit.ExecuteAsync(name, args): args absent (or JSON null) is null, the port's own default then.
    private async Task<JsonObject> ToolExecuteAsync(JsonObject a)
    {
        var res = await LookupToolkit((string)a["toolkit"]!).ExecuteAsync((string)a["name"]!, Json.Arg<Dictionary<string, object?>>(a, "args"));
        return Result(new JsonObject { ["output"] = res.Output, ["isError"] = res.IsError }, res.Metadata);
    }

    private JsonObject SchemaAdapters(JsonObject a)
    {
        var tk = LookupToolkit((string)a["toolkit"]!);
        return new JsonObject { ["openai"] = Json.ToNode(tk.ToOpenAI()), ["anthropic"] = Json.ToNode(tk.ToAnthropic()),
            ["gemini"] = Json.ToNode(tk.ToGemini()) };
    }

    // extraTools, then the suspension area's suspendingTools (as the reference adapter adds them); null when neither is given.
    private static List<ITool>? ToolkitTools(string handle, JsonObject a)
    {
        var extra = (a["extraTools"] as JsonArray)?.OfType<JsonObject>().Select(e => ExtraTool(handle, e));
        var suspending = (a["suspendingTools"] as JsonArray)?.OfType<JsonObject>().Select(e => (ITool)new SuspendingTool(handle,
            (string)e["name"]!, (string?)e["description"] ?? "", Json.Arg<Dictionary<string, object?>>(e, "inputSchema") ?? new Dictionary<string, object?>()));
        if (extra == null && suspending == null) return null;
        return (extra ?? Enumerable.Empty<ITool>()).Concat(suspending ?? Enumerable.Empty<ITool>()).ToList();
    }

    // An extraTools entry by its kind: host (the default), native (NativeTool.Of) or http (HttpTool.Of).
    private static ITool ExtraTool(string toolkit, JsonObject e) => (string?)e["kind"] switch
    {
        "native" => NativeToolOf(toolkit, e),
        "http" => HttpToolOf(e),
        _ => new HostTool(toolkit, (string)e["name"]!, (string?)e["description"] ?? "",
            Json.Arg<Dictionary<string, object?>>(e, "inputSchema") ?? new Dictionary<string, object?>()),
    };

    // NativeTool.Of(name, description, schema or null, fn): fn calls back "tool" and returns the
    // answer's value in the port's model (string, Dictionary, List, long, double, bool, null), or
    // for returns "result" a ToolResult; an ok:false answer throws HostError, which the port maps.
    private static ITool NativeToolOf(string toolkit, JsonObject e)
    {
        var name = (string)e["name"]!;
        var result = (string?)e["returns"] == "result";
        return NativeTool.Of(name, (string?)e["description"] ?? "", Json.Arg<Dictionary<string, object?>>(e, "inputSchema"), args =>
        {
            var (value, _) = Host.Call(Host.ToolSlot, new JsonObject { ["toolkit"] = toolkit, ["name"] = name, ["input"] = Json.ToNode(args) });
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

    private async Task<JsonObject> StoreGetAsync(JsonObject a) => new JsonObject
    {
        ["messages"] = Json.ToNode(await LookupClient(a).Client.ConversationStore().GetAsync((string?)a["id"] ?? "")),
    };

    private async Task<JsonObject> StoreSaveAsync(JsonObject a)
    {
        var messages = Json.Arg<List<object?>>(a, "messages") ?? throw AdapterError.Failed("adapter: messages is missing");
        await LookupClient(a).Client.ConversationStore().SaveAsync((string?)a["id"] ?? "", messages);
        return new JsonObject();
    }

    private async Task<JsonObject> ToolkitCreateAsync(JsonObject a)
    {
        var handle = (string)a["handle"]!;
        var opts = new Toolkit.Options
        {
            // as given, a bool or a dictionary (absent: off); builtinsDefault: none at all
            Builtins = (bool?)a["builtinsDefault"] == true ? null : a["builtins"] is JsonNode b ? Json.FromJson(b) : false,
            McpConfig = a["mcpConfig"] is JsonObject cfg ? ConfigValue(cfg) : null,
            ExtraTools = ToolkitTools(handle, a),
        };
        SkillOptions(a, opts);
        using var limit = Arm(a);
        var tk = await Toolkit.CreateAsync(opts, limit?.Token ?? CancellationToken.None);
        if (_toolkits.Remove(handle, out var old)) await old.DisposeAsync();
        _toolkits[handle] = tk;
        return new JsonObject { ["tools"] = Names(tk.Tools()), ["status"] = Json.ToNode(tk.McpStatus()) };
    }

    private async Task<JsonObject> ToolkitCloseAsync(JsonObject a)
    {
        await LookupToolkit((string)a["toolkit"]!).DisposeAsync();
        _toolkits.Remove((string)a["toolkit"]!);
        return new JsonObject();
    }

    // The port has no separate no-context entry point: context:false is LoadAsync without a
    // token, which carries no limit. The source is disposed before the answer (await using).
    private static async Task<JsonObject> McpLoadAsync(JsonObject a)
    {
        using var limit = Arm(a);
        if ((bool?)a["context"] == false && limit != null)
            throw AdapterError.Unsupported("adapter: context:false takes no cancelAfterMs/deadlineMs");
        await using var src = await McpSource.LoadAsync(ConfigValue(a["mcpConfig"]), null, limit?.Token ?? CancellationToken.None);
        return new JsonObject { ["tools"] = Names(src.Tools), ["status"] = Json.ToNode(src.Status) };
    }

    private static async Task<JsonObject> McpListAsync(JsonObject a)
    {
        using var limit = Arm(a);
        var inv = await McpSource.ListMcpToolsAsync(ConfigValue(a["mcpConfig"]), limit?.Token ?? CancellationToken.None);
        var tools = inv?.Tools?.ToDictionary(kv => kv.Key,
            kv => kv.Value?.Select(t => new { name = t.Name, description = t.Description, inputSchema = t.InputSchema }));
        return new JsonObject { ["tools"] = Json.ToNode(tools), ["status"] = Json.ToNode(inv?.Status) };
    }

    // cancelAfterMs / deadlineMs arm one CancellationTokenSource, the handle a caller would pass,
    // at the earlier of the two; the kind comes from what the library raised, never from here.
    private static CancellationTokenSource? Arm(JsonObject a)
    {
        long? c = (long?)a["cancelAfterMs"], d = (long?)a["deadlineMs"];
        if ((c is long x && d is long y ? Math.Min(x, y) : c ?? d) is not long ms) return null;
        var cts = new CancellationTokenSource();
        if (ms <= 0) cts.Cancel(); // already cancelled when the port is called (G3.7), never raced by a timer
        else cts.CancelAfter(TimeSpan.FromMilliseconds(ms));
        return cts;
    }

    // mcpConfig {file} passes the path string, {inline} the parsed dictionary.
    private static object ConfigValue(JsonNode? cfg) =>
        (object?)(string?)cfg?["file"] ?? Json.FromJson(cfg?["inline"])
        ?? throw AdapterError.Failed("adapter: mcpConfig has neither file nor inline");

    private ClientEntry LookupClient(JsonObject a) => _clients.TryGetValue((string)a["client"]!, out var c)
        ? c : throw AdapterError.Failed($"adapter: unknown client handle {a["client"]}");

    private Toolkit LookupToolkit(string handle) =>
        _toolkits.TryGetValue(handle, out var t) ? t : throw AdapterError.Failed($"adapter: unknown toolkit handle {handle}");

    private static JsonArray? Names(IEnumerable<ITool>? tools) => tools == null ? null : Json.Strings(tools.Select(t => t.Name));
}
