// Package httpfake is what every HTTP fake runs on, so each fake keeps only what is its own
// (the LLM wire formats and scripted turns, the endpoint's scripted answers, the MCP
// protocol):
//
//   - Start serves a handler on a free 127.0.0.1 port in one call, counts its TCP
//     connections (accepted, still open) and running requests, and Close stops it within
//     about a second, whatever its handlers are doing, leaving no listening socket and no
//     goroutine behind;
//   - Routes hands out per-scenario path prefixes ("/s/1", "/s/2", ...) on one server and
//     finds the route a request falls under;
//   - Log records what arrived (method, target as sent, headers, body, order, arrival time on
//     the fake's own clock) before anything is answered, holds an answer back, and notes how
//     long after arrival a client gave up waiting for it;
//   - SSE, Drop and WriteRaw write the answers net/http does not: flushed server-sent
//     events, a connection closed without a word, header lines byte for byte.
//
// It exists because httptest.Server.Close waits for every handler to return: the fakes keep
// SSE streams and deliberately hung requests open, and the harness must never block on them.
package httpfake
