// Conformance adapter for the toolnexus C# port: the relay of SPEC.md §3. One JSON request per
// stdin line, one response line per request on stdout; host functions call back (Host.cs).
// Unverified: written without a .NET SDK, never compiled (see README.md).
using System.Text;
using System.Text.Json.Nodes;

namespace ConformanceAdapter;

public static class Program
{
    private static readonly object WriteGate = new();
    private static TextWriter _protocol = TextWriter.Null;
    // What the library threw where nobody caught it (an unobserved task exception), for the next
    // response; never swallowed. An exception on a thread of its own ends the process, which the runner sees.
    private static readonly List<string> Crashes = new();

    public static async Task<int> Main()
    {
        var utf8 = new UTF8Encoding(false);
        _protocol = new StreamWriter(Console.OpenStandardOutput(), utf8) { AutoFlush = true };
        var stderr = TextWriter.Synchronized(new StreamWriter(Console.OpenStandardError(), utf8) { AutoFlush = true });
        Console.SetOut(stderr); // a stray Console.WriteLine must not corrupt the protocol stream
        Console.SetError(stderr);
        TaskScheduler.UnobservedTaskException += (_, e) => { lock (Crashes) Crashes.Add("unobserved task exception: " + e.Exception); e.SetObserved(); };
        var adapter = new Adapter();
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
                resp["result"] = await adapter.DispatchAsync(op, req["args"] as JsonObject ?? new JsonObject());
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
        await adapter.CloseAllAsync(TimeSpan.FromSeconds(2));
        return 0;
    }

    // Responses and callbacks share stdout, one whole line at a time.
    public static void WriteLine(string line) { lock (WriteGate) _protocol.Write(line + "\n"); }
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
