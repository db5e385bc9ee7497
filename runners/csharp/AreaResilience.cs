// The resilience area (upstream SPEC §8 Resilience): Retries, RetryBaseMs and TimeoutMs as given,
// and an OnError stub calling back resilience.onError.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaResilience : IArea
{
    public const string OnErrorSlot = "resilience.onError";

    public void Register(Registry r)
    {
        r.Slot(OnErrorSlot);
        r.ClientOption((client, a, o) =>
        {
            if ((int?)a["retries"] is int retries) o.Retries = retries;
            if ((int?)a["retryBaseMs"] is int baseMs) o.RetryBaseMs = baseMs;
            if ((long?)a["timeoutMs"] is long timeoutMs) o.TimeoutMs = timeoutMs;
            if ((bool?)a["onError"] == true) o.OnError = OnError(client);
        });
    }

    // The port's ErrorInfo as given (Status on an HTTP failure, Error on a transport one); the
    // runner's "retry"/"fail" as the port's Tier.
    private static Func<LlmClient.ErrorInfo, LlmClient.Tier> OnError(string client) => info =>
    {
        var args = new JsonObject { ["client"] = client, ["attempt"] = info.Attempt, ["retryable"] = info.Retryable };
        if (info.Status is int status) args["status"] = status;
        if (info.Error != null) args["error"] = info.Error.Message;
        var (value, _) = Host.Call(OnErrorSlot, args);
        return value as string == "fail" ? LlmClient.Tier.Fail : LlmClient.Tier.Retry;
    };
}
