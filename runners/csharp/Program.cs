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
    /// <summary>Protocol kind of an exception that escaped an op. A cancellation the caller asked
    /// for was already turned into an AdapterError by <see cref="Timing.RunAsync{T}"/>; any other
    /// OperationCanceledException is not the caller's, hence "failed".</summary>
    public static string Kind(Exception e) => e switch
    {
        AdapterError a => a.Kind,
        Toolnexus.LlmClient.RunTimeoutException => "deadline",
        ArgumentException or JsonException or FileNotFoundException or DirectoryNotFoundException => "invalid",
        _ => "failed",
    };

    /// <summary>Whether e, or an exception it wraps, is a cancellation.</summary>
    public static bool IsCancellation(Exception? e)
    {
        for (; e != null; e = e.InnerException)
        {
            if (e is OperationCanceledException) return true;
            if (e is AggregateException agg && agg.InnerExceptions.Any(IsCancellation)) return true;
        }
        return false;
    }
}

/// <summary>cancelAfterMs / deadlineMs: one CancellationTokenSource each, so the adapter knows
/// which of the two fired.</summary>
public sealed class Timing : IDisposable
{
    private readonly CancellationTokenSource? _cancel;
    private readonly CancellationTokenSource? _deadline;
    private readonly CancellationTokenSource? _linked;
    private string? _first;

    public Timing(long? cancelAfterMs, long? deadlineMs)
    {
        if (cancelAfterMs is long c)
        {
            _cancel = new CancellationTokenSource();
            _cancel.Token.Register(() => Interlocked.CompareExchange(ref _first, "cancelled", null));
            _cancel.CancelAfter(TimeSpan.FromMilliseconds(c));
        }
        if (deadlineMs is long d)
        {
            _deadline = new CancellationTokenSource();
            _deadline.Token.Register(() => Interlocked.CompareExchange(ref _first, "deadline", null));
            _deadline.CancelAfter(TimeSpan.FromMilliseconds(d));
        }
        if (_cancel != null && _deadline != null)
            _linked = CancellationTokenSource.CreateLinkedTokenSource(_cancel.Token, _deadline.Token);
        Token = _linked?.Token ?? _cancel?.Token ?? _deadline?.Token ?? CancellationToken.None;
    }

    public CancellationToken Token { get; }

    public bool IsSet => _cancel != null || _deadline != null;

    /// <summary>"cancelled" or "deadline" once one has fired (the first one), else null.</summary>
    public string? Fired()
    {
        var first = Volatile.Read(ref _first);
        if (first != null) return first;
        if (_cancel?.IsCancellationRequested == true) return "cancelled";
        if (_deadline?.IsCancellationRequested == true) return "deadline";
        return null;
    }

    /// <summary>Runs f with the token; a cancellation after a timer fired becomes that kind,
    /// with the port's own message.</summary>
    public async Task<T> RunAsync<T>(Func<CancellationToken, Task<T>> f)
    {
        try
        {
            return await f(Token);
        }
        catch (Exception e) when (Fired() is string kind && Errors.IsCancellation(e))
        {
            throw new AdapterError(kind, e.Message);
        }
    }

    public void Dispose()
    {
        _linked?.Dispose();
        _cancel?.Dispose();
        _deadline?.Dispose();
    }
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

    public Adapter(TextWriter stderr) => _stderr = stderr;

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
        JsonObject Build(bool ok, JsonObject? res, string? kind, string? message)
        {
            var resp = new JsonObject { ["id"] = id, ["ok"] = ok };
            if (ok) resp["result"] = res ?? new JsonObject();
            else resp["error"] = new JsonObject { ["kind"] = kind, ["message"] = message ?? "" };
            resp["warnings"] = new JsonArray(warnings.Select(w => (JsonNode?)JsonValue.Create(w)).ToArray());
            return resp;
        }
        try
        {
            return error == null
                ? Build(true, result, null, null).ToJsonString(Out)
                : Build(false, null, Errors.Kind(error), error.Message).ToJsonString(Out);
        }
        catch (Exception e)
        {
            return Build(false, null, "failed", "adapter: cannot encode result: " + e.Message).ToJsonString(Out);
        }
    }
}
