// The objects the adapter keeps between requests, by the handle the runner named them with:
// clients and toolkits, which several areas use. An area's own objects stay in its file.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class HandleTable<T>(string what) where T : class
{
    private readonly Dictionary<string, T> _items = new();

    public T this[string? handle] => handle != null && _items.TryGetValue(handle, out var v) ? v
        : throw AdapterError.Failed($"adapter: unknown {what} handle {handle}");

    public void Set(string handle, T value) => _items[handle] = value;
    public T? Take(string handle) => _items.Remove(handle, out var v) ? v : null;
    public List<T> TakeAll() { var all = _items.Values.ToList(); _items.Clear(); return all; }
}

public static class Handles
{
    public static readonly HandleTable<LlmClient> Clients = new("client");
    public static readonly HandleTable<Toolkit> Toolkits = new("toolkit");

    public static LlmClient Client(JsonObject a) => Clients[(string?)a["client"]];
    public static Toolkit Toolkit(JsonObject a) => Toolkits[(string?)a["toolkit"]];

    // The named toolkit, or an empty one (builtins off) built for the call and disposed after
    // it, as the port's run methods need a Toolkit.
    public static async Task<T> WithToolkitAsync<T>(JsonObject a, Func<Toolkit, Task<T>> use)
    {
        if ((string?)a["toolkit"] is string named) return await use(Toolkits[named]);
        await using var own = await Toolnexus.Toolkit.CreateAsync(new Toolkit.Options { Builtins = false });
        return await use(own);
    }

    // Disposes every toolkit still open (stdio MCP children), within limit.
    public static async Task CloseAllAsync(TimeSpan limit) =>
        await Task.WhenAny(Task.WhenAll(Toolkits.TakeAll().Select(tk => tk.DisposeAsync().AsTask())), Task.Delay(limit));
}

// The cancel handle a caller would pass: cancelAfterMs / deadlineMs arm one
// CancellationTokenSource at the earlier of the two; the kind comes from what the library
// raised, never from here.
public static class CancelHandle
{
    public static CancellationTokenSource? Arm(JsonObject a)
    {
        long? c = (long?)a["cancelAfterMs"], d = (long?)a["deadlineMs"];
        if ((c is long x && d is long y ? Math.Min(x, y) : c ?? d) is not long ms) return null;
        var cts = new CancellationTokenSource();
        if (ms <= 0) cts.Cancel(); // already cancelled when the port is called (G3.7), never raced by a timer
        else cts.CancelAfter(TimeSpan.FromMilliseconds(ms));
        return cts;
    }
}
