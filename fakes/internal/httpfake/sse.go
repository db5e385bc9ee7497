package httpfake

import (
	"encoding/json"
	"net/http"
)

// SSE writes server-sent events, flushing each so a streaming client sees it at once. After
// the first write error (the client went away) it writes nothing more.
type SSE struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
	// NoSpace writes "data:…" and "event:…" without the optional space after the colon.
	NoSpace bool
	// CRLF ends every line with CR LF, which the SSE format allows beside LF.
	CRLF bool
}

// StartSSE answers 200 text/event-stream and flushes the headers at once: flushed headers
// are what make a client believe the stream is open.
func StartSSE(w http.ResponseWriter) *SSE {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	s := &SSE{w: w, rc: http.NewResponseController(w)}
	s.err = s.rc.Flush()
	return s
}

// Event writes one event whose data is v as JSON; name "" omits the event line.
func (s *SSE) Event(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("httpfake: marshal event: " + err.Error()) // the fakes' own values; cannot happen
	}
	s.Data(name, b)
}

// Data writes one event whose data is data as is; name "" omits the event line.
func (s *SSE) Data(name string, data []byte) {
	if s.err != nil {
		return
	}
	sp, nl := " ", "\n"
	if s.NoSpace {
		sp = ""
	}
	if s.CRLF {
		nl = "\r\n"
	}
	var buf []byte
	if name != "" {
		buf = append(buf, "event:"+sp+name+nl...)
	}
	buf = append(buf, "data:"+sp...)
	buf = append(buf, data...)
	buf = append(buf, nl+nl...)
	if _, s.err = s.w.Write(buf); s.err == nil {
		s.err = s.rc.Flush()
	}
}
