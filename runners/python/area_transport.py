"""The transport area: the recording HTTP client that client.create installs for
httpClient: "recording", and the `http` host function it calls before each request."""
from __future__ import annotations

from typing import Any

import toolnexus as tn

import kit
from kit import AdapterError


class RecordingTransport(tn.UrllibTransport):
    """The port's Gap 2 injection point, its default transport, calling back before each request
    (retries included)."""

    def __init__(self, client: str) -> None:
        self._client = client

    def post(self, url: str, *rest: Any) -> Any:
        kit.slot("transport.http", {"client": self._client, "method": "POST", "url": url})
        return super().post(url, *rest)

    def open(self, url: str, *rest: Any) -> Any:  # noqa: A003
        kit.slot("transport.http", {"client": self._client, "method": "POST", "url": url})
        return super().open(url, *rest)


def client_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    if "httpTimeoutMs" in args:
        # The port's http_transport has no timeout of its own to keep or drop.
        raise AdapterError("unsupported",
                           "adapter: httpTimeoutMs: the Python port takes an http_transport with no timeout of its own")
    if args.get("httpClient") == "recording":
        kw["http_transport"] = RecordingTransport(handle)


# order 30: before the store area, so httpTimeoutMs is refused before the host store is made.
kit.register({}, slots=("transport.http",), client_option=client_option, order=30)
