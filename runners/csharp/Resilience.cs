using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

// The resilience area (upstream SPEC §8 Resilience): Retries, RetryBaseMs and TimeoutMs as given,
// and an OnError stub calling back resilience.onError. UNVERIFIED: written to the port's
// documented API (LlmClient.Options, ErrorInfo, Tier); no .NET SDK on the machine that wrote it.
public static class ResilienceStubs
{
    public const string OnErrorSlot = "resilience.onError";

    public static void Apply(string client, JsonObject a, LlmClient.Options opts)
    {
        if ((int?)a["retries"] is int retries) opts.Retries = retries;
        if ((int?)a["retryBaseMs"] is int baseMs) opts.RetryBaseMs = baseMs;
        if ((long?)a["timeoutMs"] is long timeoutMs) opts.TimeoutMs = timeoutMs;
        if ((bool?)a["onError"] == true) opts.OnError = OnError(client);
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
