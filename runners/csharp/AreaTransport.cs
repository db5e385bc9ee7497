// The transport area (ADR 0001 gap 2): client.create's httpClient "recording", an HttpClient the
// port takes whole, whose handler calls back transport.http before each request it carries.
using System.Text.Json.Nodes;

namespace ConformanceAdapter;

public sealed class AreaTransport : IArea
{
    public const string HttpSlot = "transport.http";

    public void Register(Registry r)
    {
        r.Slot(HttpSlot);
        // The port takes the HttpClient whole, so its own timeout travels with it (G2.1); none
        // given is infinite, as the port's own default client has no timeout either.
        r.ClientOption((handle, a, o) =>
        {
            if ((string?)a["httpClient"] != "recording") return;
            o.HttpClient = new HttpClient(new RecordingHandler(handle)) { Timeout =
                (long?)a["httpTimeoutMs"] is long ms ? TimeSpan.FromMilliseconds(ms) : Timeout.InfiniteTimeSpan };
        });
    }

    // Calls back before each request (the port sends with SendAsync), then the default transport sends it.
    private sealed class RecordingHandler(string client) : DelegatingHandler(new SocketsHttpHandler())
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Host.Call(HttpSlot, new JsonObject { ["client"] = client, ["method"] = request.Method.Method, ["url"] = request.RequestUri?.ToString() ?? "" });
            return base.SendAsync(request, cancellationToken);
        }
    }
}
