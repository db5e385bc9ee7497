package toolnexus

import (
	"encoding/json"
	"strings"
)

// An http tool's resultMode "json" (C8.13): the body parsed and written back compact, in
// the body's own key order and without HTML escaping, as JSON.stringify(JSON.parse(body))
// would. encoding/json's map decoding would sort the keys and its encoder escapes '<', so
// this walks the decoder's tokens instead.

// orderedObject is a JSON object that remembers its key order.
type orderedObject struct {
	keys []string
	vals map[string]any
}

// compactJSONInOrder rewrites text as described above. Numbers keep their literal text,
// so nothing the server sent is rounded. A body that is not one JSON value becomes that
// text as a JSON string, as JSON.stringify of the unparsed text does upstream.
func compactJSONInOrder(text string) string {
	var b strings.Builder
	if !json.Valid([]byte(text)) {
		writeJSONString(&b, text)
		return b.String()
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := readJSONValue(dec)
	if err != nil { // json.Valid said yes, so this does not happen; stay total anyway
		writeJSONString(&b, text)
		return b.String()
	}
	writeJSONValue(&b, v)
	return b.String()
}

func readJSONValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := &orderedObject{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := readJSONValue(dec)
			if err != nil {
				return nil, err
			}
			// A repeated key keeps its first place and its last value, as JSON.parse does.
			if _, dup := obj.vals[k]; !dup {
				obj.keys = append(obj.keys, k)
			}
			obj.vals[k] = v
		}
		_, err := dec.Token() // '}'
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := readJSONValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token() // ']'
		return arr, err
	}
	return tok, nil
}

func writeJSONValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case *orderedObject:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			writeJSONValue(b, x.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONValue(b, e)
		}
		b.WriteByte(']')
	case string:
		writeJSONString(b, x)
	case json.Number:
		b.WriteString(x.String())
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default: // nil
		b.WriteString("null")
	}
}

// writeJSONString quotes s as JSON.stringify does: only '"', '\\' and control characters
// are escaped; '<', '>', '&', U+2028 and U+2029 stay as they are.
func writeJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&15])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
