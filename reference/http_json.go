package toolnexus

import (
	"strings"
)

// An http tool's resultMode "json" (C8.13): the body parsed and written back compact, in
// the body's own key order and without HTML escaping, as JSON.stringify(JSON.parse(body))
// would. encoding/json's map decoding would sort the keys and its encoder escapes '<'.

// compactJSONInOrder rewrites text as JSON.stringify(JSON.parse(text)) would (jsStringifyRaw:
// numbers as JavaScript prints them, so 1.0 is 1). A body that is not one JSON value becomes
// that text as a JSON string, as JSON.stringify of the unparsed text does upstream.
func compactJSONInOrder(text string) string {
	if out, err := jsStringifyRaw([]byte(text)); err == nil {
		return out
	}
	var b strings.Builder
	writeJSString(&b, text)
	return b.String()
}
