// The adapter kit (SPEC.md §3), written once for every area: the request loop, dispatch through
// the table the area files fill (IArea), hello, the relay of errors with their chain, and the
// capture of warnings and crashes. The callback pipe and the JSON value model are KitWire.cs;
// the handles the areas share are KitHandles.cs. Nothing here names an op of an area.
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

// One area of the protocol: a file that registers its ops, slots and options, and nothing else
// needs to know of it. The kit finds every IArea in this assembly when it starts.
public interface IArea
{
    void Register(Registry r);
}

// What the areas fill: the op table, the slots hello lists, and what an area adds to another
// area's build (client.create's LlmClient.Options, toolkit.create's Toolkit.Options and tools).
public sealed class Registry
{
    public readonly SortedDictionary<string, Func<JsonObject, Task<JsonObject>>> Ops = new(StringComparer.Ordinal);
    public readonly List<string> Slots = new();
    public readonly List<Action<string, JsonObject, LlmClient.Options>> ClientOptions = new();
    public readonly List<Action<string, JsonObject, Toolkit.Options>> ToolkitOptions = new();
    private readonly List<(int Rank, Func<string, JsonObject, IEnumerable<ITool>?> Tools)> _toolkitTools = new();

    public void Op(string name, Func<JsonObject, Task<JsonObject>> handler) => Ops.Add(name, handler);
    public void Op(string name, Func<JsonObject, JsonObject> handler) => Ops.Add(name, a => Task.FromResult(handler(a)));
    public void Slot(string name) { if (!Slots.Contains(name)) Slots.Add(name); }
    public void ClientOption(Action<string, JsonObject, LlmClient.Options> apply) => ClientOptions.Add(apply);
    public void ToolkitOption(Action<string, JsonObject, Toolkit.Options> apply) => ToolkitOptions.Add(apply);
    // Tools an area adds to toolkit.create's ExtraTools; rank orders them (null: none of this area's).
    public void ToolkitTool(int rank, Func<string, JsonObject, IEnumerable<ITool>?> tools) => _toolkitTools.Add((rank, tools));

    // The Options each area added to, in the areas' order (by type name, so the same every run).
    public void ApplyClientOptions(string handle, JsonObject a, LlmClient.Options o) { foreach (var f in ClientOptions) f(handle, a, o); }
    public void ApplyToolkitOptions(string handle, JsonObject a, Toolkit.Options o)
    {
        foreach (var f in ToolkitOptions) f(handle, a, o);
        List<ITool>? tools = null; // ExtraTools stays null when no area was given any
        foreach (var (_, f) in _toolkitTools.OrderBy(t => t.Rank))
            if (f(handle, a) is { } more) (tools ??= new()).AddRange(more);
        if (tools != null) o.ExtraTools = tools;
    }
}

public static class Kit
{
    public static readonly Registry Areas = Load();
    private static readonly object WriteGate = new();
    private static TextWriter _protocol = TextWriter.Null;
    // What the library threw where nobody caught it (an unobserved task exception), for the next
    // response; never swallowed. An exception on a thread of its own ends the process, which the runner sees.
    private static readonly List<string> Crashes = new();

    private static Registry Load()
    {
        var r = new Registry();
        r.Op("hello", _ => Hello());
        r.Op("shutdown", _ => new JsonObject());
        foreach (var t in typeof(Kit).Assembly.GetTypes().Where(t => typeof(IArea).IsAssignableFrom(t) && t.IsClass).OrderBy(t => t.FullName, StringComparer.Ordinal))
            ((IArea)Activator.CreateInstance(t)!).Register(r);
        return r;
    }

    public static async Task<int> Main()
    {
        var utf8 = new UTF8Encoding(false);
        _protocol = new StreamWriter(Console.OpenStandardOutput(), utf8) { AutoFlush = true };
        var stderr = TextWriter.Synchronized(new StreamWriter(Console.OpenStandardError(), utf8) { AutoFlush = true });
        Console.SetOut(stderr); // a stray Console.WriteLine must not corrupt the protocol stream
        Console.SetError(stderr);
        TaskScheduler.UnobservedTaskException += (_, e) => { lock (Crashes) Crashes.Add("unobserved task exception: " + e.Exception); e.SetObserved(); };
        using var stdin = new StreamReader(Console.OpenStandardInput(), utf8);
        while (await stdin.ReadLineAsync() is string line)
        {
            if (string.IsNullOrWhiteSpace(line)) continue;
            var req = JsonNode.Parse(line)!; // the runner validated it against the schema
            var op = (string)req["op"]!;
            var resp = new JsonObject { ["id"] = (long)req["id"]!, ["ok"] = true };
            var capture = new WarningCapture(stderr); // the port warns on Console.Error
            Console.SetError(capture);
            try
            {
                var handler = Areas.Ops.GetValueOrDefault(op) ?? throw AdapterError.Unsupported($"adapter: unknown op \"{op}\"");
                resp["result"] = await handler(req["args"] as JsonObject ?? new JsonObject());
            }
            catch (Exception e)
            {
                stderr.WriteLine($"adapter: {op} failed: {e}");
                resp["ok"] = false;
                resp["error"] = Errors.Relay(e);
            }
            finally
            {
                Console.SetError(stderr);
            }
            resp["warnings"] = Json.Strings(capture.Warnings());
            lock (Crashes)
            {
                if (Crashes.Count > 0) resp["crashes"] = Json.Strings(Crashes);
                Crashes.Clear();
            }
            WriteLine(resp.ToJsonString(Json.Out));
            if (op == "shutdown") break;
        }
        await Handles.CloseAllAsync(TimeSpan.FromSeconds(2));
        return 0;
    }

    // Responses and callbacks share stdout, one whole line at a time.
    public static void WriteLine(string line) { lock (WriteGate) _protocol.Write(line + "\n"); }

    private static JsonObject Hello()
    {
        var asm = typeof(LlmClient).Assembly;
        var version = asm.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? asm.GetName().Version?.ToString();
        return new JsonObject { ["port"] = "csharp", ["library"] = "toolnexus", ["version"] = version ?? "unknown",
            ["runtime"] = RuntimeInformation.FrameworkDescription, ["ops"] = Json.Strings(Areas.Ops.Keys), ["slots"] = Json.Strings(Areas.Slots) };
    }
}

// The adapter's own answer: "unsupported" (the port cannot express the op or an argument of it)
// or "failed" (an adapter fault).
public sealed class AdapterError(string kind, string message) : Exception(message)
{
    public string Kind { get; } = kind;
    public static AdapterError Unsupported(string message) => new("unsupported", message);
    public static AdapterError Failed(string message) => new("failed", message);
}

// Errors are relayed, never judged: the runner gives the kind from runners/csharp/errors.json.
public static class Errors
{
    public static JsonObject Relay(Exception e) => e is AdapterError a
        ? new JsonObject { ["kind"] = a.Kind, ["message"] = a.Message }
        : new JsonObject { ["message"] = e.Message, ["type"] = TypeName(e.GetType()), ["chain"] = Chain(e, new JsonArray()) };

    // The error, then what it wraps, depth first: an AggregateException's InnerExceptions (its
    // InnerException is only the first of them), else InnerException. `is` lists the base types.
    // Both are fixed when an exception is built, so the walk cannot loop.
    private static JsonArray Chain(Exception e, JsonArray chain)
    {
        var bases = new JsonArray();
        for (var t = e.GetType().BaseType; t != null && t != typeof(Exception) && t != typeof(object); t = t.BaseType)
            bases.Add((JsonNode?)TypeName(t));
        chain.Add(new JsonObject { ["type"] = TypeName(e.GetType()), ["is"] = bases, ["message"] = e.Message });
        if (e is AggregateException agg)
            foreach (var inner in agg.InnerExceptions) Chain(inner, chain);
        else if (e.InnerException != null)
            Chain(e.InnerException, chain);
        return chain;
    }

    private static string TypeName(Type t) => t.FullName ?? t.Name;
}

// Installed with Console.SetError for one request: records what the port writes and passes it
// on to the real stderr. TextWriter routes every other overload through these two Writes.
public sealed class WarningCapture(TextWriter tee) : TextWriter
{
    private readonly StringBuilder _buf = new();
    public override Encoding Encoding => Encoding.UTF8;
    public override void Write(char value) => Write(value.ToString());
    public override void Write(string? value) { lock (_buf) _buf.Append(value); tee.Write(value); }
    public override void Flush() => tee.Flush();

    // The port's warnings: the lines starting with "[toolnexus]".
    public List<string> Warnings()
    {
        lock (_buf)
            return _buf.ToString().Split('\n').Select(l => l.TrimEnd('\r'))
                .Where(l => l.StartsWith("[toolnexus]", StringComparison.Ordinal)).ToList();
    }
}
