package llm

import (
	"encoding/json"
	"net/http"
)

// sseWriter writes server-sent events, flushing each so a streaming client
// sees it at once. After the first write error (the client went away) it
// writes nothing more.
type sseWriter struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
	// noSpace writes "data:…" and "event:…" without the optional space after the colon.
	noSpace bool
}

func startSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	s.err = s.rc.Flush()
	return s
}

// event writes one event; name "" omits the event line (the openai form).
func (s *sseWriter) event(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("llm fake: marshal event: " + err.Error()) // our own values; cannot happen
	}
	s.raw(name, b)
}

func (s *sseWriter) raw(name string, data []byte) {
	if s.err != nil {
		return
	}
	sp := " "
	if s.noSpace {
		sp = ""
	}
	var buf []byte
	if name != "" {
		buf = append(buf, "event:"+sp+name+"\n"...)
	}
	buf = append(buf, "data:"+sp...)
	buf = append(buf, data...)
	buf = append(buf, "\n\n"...)
	if _, s.err = s.w.Write(buf); s.err == nil {
		s.err = s.rc.Flush()
	}
}

// pieces splits s into at least two parts (the second may be empty), so every
// client must reassemble deltas rather than read one whole value.
func pieces(s string) []string {
	r := []rune(s)
	if len(r) < 2 {
		return []string{s, ""}
	}
	size := max(1, len(r)/3)
	var out []string
	for len(r) > 0 {
		n := min(size, len(r))
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}
