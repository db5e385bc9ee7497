// Package loopback runs the fakes' HTTP servers: one call starts a server on a
// free 127.0.0.1 port, and Close stops it within about a second, whatever its
// handlers are doing, leaving no listening socket and no goroutine behind.
//
// It exists because httptest.Server.Close waits for every handler to return:
// the fakes keep SSE streams and deliberately hung requests open, and the
// harness must never block on them.
package loopback
