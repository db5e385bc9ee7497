// Package endpoint is the HTTP endpoint fake the http tools and webfetch are aimed at: one
// loopback HTTP server that records every request (method, the path and query exactly as
// sent, still percent-encoded, headers and raw body) and answers with a per-path script.
//
// Each scenario takes its own Route, whose base URL ("<server>/s/<n>") the tool's URL is
// built on, so scenarios and ports can run in parallel against one server without seeing
// each other's requests or answers. Under every route:
//   - a path scripted with Route.Handle answers as scripted;
//   - "/redirect" answers 302 with Location "<prefix>/final";
//   - "/final" answers 200 with the body FinalBody;
//   - "/slow" answers 200 SlowBody after the route's slow delay (DefaultSlowDelay unless
//     Route.SetSlowDelay says otherwise);
//   - any other path answers 200 with the body "ok".
//
// A request is recorded before it is answered, so a client that gives up has still sent
// what the scenario judges. Delays are bounded by MaxDelay and end at once when the client
// goes away or the server closes.
package endpoint
