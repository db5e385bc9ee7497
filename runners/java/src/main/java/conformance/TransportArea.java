package conformance;

import java.io.IOException;
import java.net.*;
import java.net.http.*;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.*;
import javax.net.ssl.*;

/** httpClient "recording": client.create's Options.httpClient, which calls back the {@code http} host function. */
final class TransportArea implements Kit.Area {
    /**
     * One real client behind every recording one: each HttpClient owns a selector thread. Made on
     * first use (a holder class), so an adapter that never records starts no such thread.
     */
    private static final class Real {
        static final HttpClient CLIENT = HttpClient.newHttpClient();
    }

    private KitHost host;

    /** Before the store area: httpTimeoutMs is refused before the host store is made. */
    @Override public int order() { return 20; }

    @Override
    public void install(Kit kit) {
        host = kit.host;
        kit.slots("transport.http");
        kit.clientPart((handle, a, opts, kept) -> {
            if (!"recording".equals(a.get("httpClient"))) return;
            if (a.containsKey("httpTimeoutMs")) {
                throw AdapterException.unsupported("adapter: httpTimeoutMs: a java.net.http.HttpClient has no request timeout of its own");
            }
            Port.set(opts, "httpClient", recordingHttp(handle));
        });
    }

    /** Calls back {@code http}, then sends through a default client. */
    private HttpClient recordingHttp(String client) {
        return new HttpClient() {
            private HttpRequest callBack(HttpRequest r) {
                host.slot("transport.http", Json.obj("client", client, "method", r.method(), "url", r.uri().toString()));
                return r;
            }

            @Override
            public <T> HttpResponse<T> send(HttpRequest r, HttpResponse.BodyHandler<T> h) throws IOException, InterruptedException {
                return Real.CLIENT.send(callBack(r), h);
            }

            @Override
            public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h) {
                return Real.CLIENT.sendAsync(callBack(r), h);
            }

            @Override
            public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h,
                                                                    HttpResponse.PushPromiseHandler<T> p) {
                return Real.CLIENT.sendAsync(callBack(r), h, p);
            }

            // The rest is the real client's configuration.
            @Override public Optional<CookieHandler> cookieHandler() { return Real.CLIENT.cookieHandler(); }
            @Override public Optional<Duration> connectTimeout() { return Real.CLIENT.connectTimeout(); }
            @Override public Redirect followRedirects() { return Real.CLIENT.followRedirects(); }
            @Override public Optional<ProxySelector> proxy() { return Real.CLIENT.proxy(); }
            @Override public SSLContext sslContext() { return Real.CLIENT.sslContext(); }
            @Override public SSLParameters sslParameters() { return Real.CLIENT.sslParameters(); }
            @Override public Optional<Authenticator> authenticator() { return Real.CLIENT.authenticator(); }
            @Override public Version version() { return Real.CLIENT.version(); }
            @Override public Optional<Executor> executor() { return Real.CLIENT.executor(); }
        };
    }
}
