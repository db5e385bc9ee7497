// Conformance adapter for the toolnexus C# port: the protocol of SPEC.md §3.
// One JSON request per stdin line, handled one at a time; exactly one JSON response line per
// request on stdout; nothing else ever reaches stdout (Console.Out is pointed at stderr).
// Unverified: written without a .NET SDK, never compiled (see README.md).
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace ConformanceAdapter;

public static class Program
{
    public static async Task<int> Main()
    {
        var utf8 = new UTF8Encoding(false);
        var protocol = new StreamWriter(Console.OpenStandardOutput(), utf8) { AutoFlush = true, NewLine = "\n" };
        var stderr = TextWriter.Synchronized(new StreamWriter(Console.OpenStandardError(), utf8) { AutoFlush = true });
        Console.SetOut(stderr); // a stray Console.WriteLine must not corrupt the protocol stream
        Console.SetError(stderr);

        var adapter = new Adapter(stderr);
        using var stdin = new StreamReader(Console.OpenStandardInput(), utf8);
        string? line;
        while ((line = await stdin.ReadLineAsync()) != null)
        {
            if (string.IsNullOrWhiteSpace(line)) continue;
            var (response, shutdown) = await adapter.HandleLineAsync(line);
            if (response != null)
            {
                protocol.Write(response);
                protocol.Write('\n');
                protocol.Flush();
            }
            if (shutdown) break;
        }
        await adapter.CloseAllAsync(TimeSpan.FromSeconds(2));
        return 0;
    }
}

/// <summary>An error whose protocol kind the adapter already knows.</summary>
public sealed class AdapterError(string kind, string message) : Exception(message)
{
    public string Kind { get; } = kind;

    public static AdapterError Unsupported(string message) => new("unsupported", message);
    public static AdapterError Failed(string message) => new("failed", message);
}

public static class Errors
{
    /// <summary>Protocol kind from the library's own exception types (SPEC.md §3), never from
    /// which of the adapter's timers fired: a TimeoutException (or the port's RunTimeoutException)
    /// anywhere in the chain is a deadline, an OperationCanceledException a cancel. .NET raises
    /// the same OperationCanceledException for CancelAfter, so a deadline on an MCP load reports
    /// "cancelled", as the table says.</summary>
    public static string Kind(Exception e)
    {
        if (e is AdapterError a) return a.Kind;
        if (Find(e, x => x is TimeoutException || x is Toolnexus.LlmClient.RunTimeoutException) != null) return "deadline";
        if (Find(e, x => x is OperationCanceledException) != null) return "cancelled";
        return e is ArgumentException or JsonException or FileNotFoundException or DirectoryNotFoundException
            ? "invalid" : "failed";
    }

    /// <summary>The first exception in e's chain (inner and aggregate) that matches.</summary>
    public static Exception? Find(Exception? e, Func<Exception, bool> match)
    {
        for (; e != null; e = e.InnerException)
        {
            if (match(e)) return e;
            if (e is AggregateException agg)
                foreach (var inner in agg.InnerExceptions)
                    if (Find(inner, match) is Exception hit) return hit;
        }
        return null;
    }
}

/// <summary>cancelAfterMs / deadlineMs arm one CancellationTokenSource, the handle a caller of
/// the port would use; which limit fired is not recorded, because the kind must come from what
/// the library raised.</summary>
public sealed class Timing : IDisposable
{
    private readonly CancellationTokenSource? _source;

    public Timing(long? cancelAfterMs, long? deadlineMs)
    {
        long? first = cancelAfterMs is long c && deadlineMs is long d ? Math.Min(c, d) : cancelAfterMs ?? deadlineMs;
        if (first is long ms)
        {
            _source = new CancellationTokenSource();
            // 0 ms: already cancelled when the port is called (SPEC.md §3, G3.7), never raced by a timer
            if (ms <= 0) _source.Cancel();
            else _source.CancelAfter(TimeSpan.FromMilliseconds(ms));
        }
        Token = _source?.Token ?? CancellationToken.None;
    }

    public CancellationToken Token { get; }

    public bool IsSet => _source != null;

    /// <summary>Runs f with the token; whatever it raises travels unchanged.</summary>
    public Task<T> RunAsync<T>(Func<CancellationToken, Task<T>> f) => f(Token);

    public void Dispose() => _source?.Dispose();
}

/// <summary>Installed with Console.SetError for one request: records what the port writes and
/// passes it on to the real stderr.</summary>
public sealed class WarningCapture(TextWriter tee) : TextWriter
{
    private readonly StringBuilder _buf = new();
    private readonly object _gate = new();

    public override Encoding Encoding => Encoding.UTF8;

    public override void Write(char value)
    {
        lock (_gate) _buf.Append(value);
        tee.Write(value);
    }

    public override void Write(string? value)
    {
        if (value == null) return;
        lock (_gate) _buf.Append(value);
        tee.Write(value);
    }

    public override void Write(char[] buffer, int index, int count)
    {
        lock (_gate) _buf.Append(buffer, index, count);
        tee.Write(buffer, index, count);
    }

    public override void WriteLine(string? value) => Write((value ?? "") + NewLine);

    public override void Flush() => tee.Flush();

    /// <summary>The port's warning lines: those starting with "[toolnexus]".</summary>
    public List<string> Warnings()
    {
        string text;
        lock (_gate) text = _buf.ToString();
        return text.Split('\n')
            .Select(l => l.TrimEnd('\r'))
            .Where(l => l.StartsWith("[toolnexus]", StringComparison.Ordinal))
            .ToList();
    }
}

public sealed partial class Adapter
{
    private static readonly JsonSerializerOptions Out = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The real stderr: the adapter's own log, and where captured warnings are teed.</summary>
    private readonly TextWriter _stderr;

    /// <summary>What the library threw where nobody caught it (an unobserved task exception):
    /// the next response carries it in "crashes" for the runner to judge; never swallowed.
    /// An unhandled exception on a thread of its own ends a .NET process: the runner sees that.</summary>
    private static readonly List<string> Crashes = new();

    public Adapter(TextWriter stderr)
    {
        _stderr = stderr;
        TaskScheduler.UnobservedTaskException += (_, e) =>
        {
            lock (Crashes) Crashes.Add("unobserved task exception: " + e.Exception);
            e.SetObserved();
        };
    }

    private static List<string> TakeCrashes()
    {
        lock (Crashes)
        {
            var out_ = new List<string>(Crashes);
            Crashes.Clear();
            return out_;
        }
    }

    /// <summary>Parses and serves one line. Returns the response line (null for a line that has no
    /// usable id and so cannot be answered) and whether the adapter should exit.</summary>
    public async Task<(string? Response, bool Shutdown)> HandleLineAsync(string line)
    {
        JsonDocument doc;
        try
        {
            doc = JsonDocument.Parse(line);
        }
        catch (JsonException e)
        {
            _stderr.WriteLine($"adapter: skipping malformed line: {e.Message}");
            return (null, false);
        }
        using (doc)
        {
            var root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object
                || !root.TryGetProperty("id", out var idEl)
                || idEl.ValueKind != JsonValueKind.Number
                || !idEl.TryGetInt64(out var id) || id < 1)
            {
                _stderr.WriteLine($"adapter: skipping line without a valid id: {line}");
                return (null, false);
            }
            var op = root.TryGetProperty("op", out var opEl) && opEl.ValueKind == JsonValueKind.String
                ? opEl.GetString() ?? "" : "";
            var args = root.TryGetProperty("args", out var a) ? a : default;

            var capture = new WarningCapture(_stderr);
            JsonObject? result = null;
            Exception? error = null;
            Console.SetError(capture);
            try
            {
                result = await DispatchAsync(op, args);
            }
            catch (Exception e)
            {
                error = e;
            }
            finally
            {
                Console.SetError(_stderr);
            }
            if (error != null)
                _stderr.WriteLine($"adapter: {op} failed: {error.GetType().FullName}: {error.Message}");
            return (Render(id, result, error, capture.Warnings()), op == "shutdown");
        }
    }

    private static string Render(long id, JsonObject? result, Exception? error, List<string> warnings)
    {
        JsonObject Build(bool ok, JsonObject? res, string? kind, string? message, string? type = null)
        {
            var resp = new JsonObject { ["id"] = id, ["ok"] = ok };
            if (ok) resp["result"] = res ?? new JsonObject();
            else
            {
                var err = new JsonObject { ["kind"] = kind, ["message"] = message ?? "" };
                if (type != null) err["type"] = type;
                resp["error"] = err;
            }
            resp["warnings"] = new JsonArray(warnings.Select(w => (JsonNode?)JsonValue.Create(w)).ToArray());
            var crashes = TakeCrashes();
            if (crashes.Count > 0)
                resp["crashes"] = new JsonArray(crashes.Select(c => (JsonNode?)JsonValue.Create(c)).ToArray());
            return resp;
        }
        try
        {
            return error == null
                ? Build(true, result, null, null).ToJsonString(Out)
                : Build(false, null, Errors.Kind(error), error.Message,
                    error is AdapterError ? null : error.GetType().FullName).ToJsonString(Out);
        }
        catch (Exception e)
        {
            return Build(false, null, "failed", "adapter: cannot encode result: " + e.Message).ToJsonString(Out);
        }
    }
}
