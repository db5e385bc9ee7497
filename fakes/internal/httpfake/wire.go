package httpfake

import (
	"fmt"
	"net/http"
)

// Drop closes the client's connection with no answer at all: a network failure as the
// client sees it.
func Drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler) // net/http closes the connection without a response
}

// WriteRaw writes a whole answer on the bare connection and closes it: the status line,
// Content-Type, Content-Length and "Connection: close", then lines byte for byte, then
// body. net/http would trim header values and fold repeated names, and a header's own
// spaces and repeats are what some scenarios are about.
func WriteRaw(w http.ResponseWriter, status int, contentType string, lines []string, body []byte) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n",
		status, http.StatusText(status), contentType, len(body))
	for _, l := range lines {
		buf.WriteString(l + "\r\n")
	}
	buf.WriteString("\r\n")
	buf.Write(body)
	_ = buf.Flush()
}
