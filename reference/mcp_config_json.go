package toolnexus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// mcpSiblingKeys are other top-level sections a bare server map may sit beside.
var mcpSiblingKeys = map[string]bool{"builtins": true, "agents": true, "a2a": true, "mcpServer": true}

// mcpWrapperKeys hold the server map when present, in priority order: the first key
// present wins, whatever the later ones hold.
var mcpWrapperKeys = []string{"mcpServers", "servers", "mcp"}

func parseMcpJSON(data []byte, what string) ([]mcpEntry, error) {
	top, err := decodeOrderedObject(data)
	if err != nil {
		return nil, fmt.Errorf("toolnexus: %s: %w", what, err)
	}
	servers, wrapped, err := pickMcpServers(top)
	if err != nil {
		return nil, fmt.Errorf("toolnexus: %s: %w", what, err)
	}
	out := make([]mcpEntry, 0, len(servers))
	for _, m := range servers {
		if !wrapped && mcpSiblingKeys[m.key] {
			continue
		}
		out = append(out, mcpEntry{name: m.key, cfg: decodeMcpEntry(m.raw)})
	}
	return out, nil
}

// pickMcpServers finds the server map: under the first wrapper key present, else the whole
// object (wrapped false). A wrapper holding null means no servers.
func pickMcpServers(top []jsonMember) ([]jsonMember, bool, error) {
	for _, key := range mcpWrapperKeys {
		for _, m := range top {
			if m.key != key {
				continue
			}
			if isMcpJSONNull(m.raw) {
				return nil, true, nil
			}
			servers, err := decodeOrderedObject(m.raw)
			if err != nil {
				return nil, true, fmt.Errorf("%q: %w", key, err)
			}
			return servers, true, nil
		}
	}
	return top, false, nil
}

// decodeMcpEntry reads one server value. What cannot be read becomes the entry's problem
// (the load then reports the server failed), so one bad entry never stops the others.
func decodeMcpEntry(raw json.RawMessage) ServerConfig {
	if isMcpJSONNull(raw) {
		return ServerConfig{problem: errors.New("config is null, want an object")}
	}
	var sc ServerConfig
	if err := json.Unmarshal(raw, &sc); err != nil {
		return ServerConfig{problem: err}
	}
	if sc.problem == nil {
		sc.problem = sc.validate()
	}
	return sc
}

// UnmarshalJSON decodes one server entry field by field. Only a value that is not an object
// is an error; a field that cannot be used is recorded, named but never quoted, and a load
// reports the server failed. Fields with a pinned lenient reading (a non-boolean enabled or
// disabled, a non-number timeout) are ignored instead.
func (c *ServerConfig) UnmarshalJSON(data []byte) error {
	if isMcpJSONNull(data) {
		return nil
	}
	fields, err := decodeJSONObject(data)
	if err != nil {
		return err
	}
	var out ServerConfig
	var cmdArgs []string
	for _, key := range sortedKeys(fields) {
		raw := fields[key]
		if isMcpJSONNull(raw) {
			continue
		}
		var problem error
		switch key {
		case "type":
			problem = decodeMcpField(raw, &out.Type, "a string")
		case "url":
			problem = decodeMcpField(raw, &out.URL, "a string")
		case "command":
			out.Command, cmdArgs, problem = decodeMcpCommand(raw)
		case "args":
			problem = decodeMcpField(raw, &out.Args, "an array of strings")
		case "cwd":
			problem = decodeMcpField(raw, &out.Cwd, "a string")
		case "headers":
			out.Headers, problem = decodeMcpStringMap(raw)
		case "enabled":
			var b bool
			if json.Unmarshal(raw, &b) == nil {
				out.Enabled = &b
			}
		case "disabled":
			_ = json.Unmarshal(raw, &out.Disabled)
		case "timeout":
			out.Timeout = decodeMcpTimeout(raw)
		case "tools":
			out.Tools, problem = decodeToolsFilter(raw)
		}
		if problem != nil && out.problem == nil {
			out.problem = fmt.Errorf("%q: %w", key, problem)
		}
	}
	// "environment" (the published spelling) decides when it is given, even as {}; "env"
	// is its alias for when it is not.
	for _, key := range []string{"environment", "env"} {
		if raw, ok := fields[key]; ok && !isMcpJSONNull(raw) {
			m, problem := decodeMcpStringMap(raw)
			if problem != nil && out.problem == nil {
				out.problem = fmt.Errorf("%q: %w", key, problem)
			}
			out.Env = m
			break
		}
	}
	out.Args = append(cmdArgs, out.Args...)
	*c = out
	return nil
}

func decodeMcpField(raw json.RawMessage, dst any, want string) error {
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("must be %s, got %s", want, mcpJSONKind(raw))
	}
	return nil
}

func decodeMcpCommand(raw json.RawMessage) (string, []string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one, nil, nil
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return "", nil, fmt.Errorf("must be a string or an array of strings, got %s", mcpJSONKind(raw))
	}
	if len(many) == 0 {
		return "", nil, fmt.Errorf("array is empty")
	}
	return many[0], many[1:], nil
}

// decodeMcpStringMap reads an env or headers object: a string is kept, a number or boolean
// becomes its JSON text, a null entry is dropped. Messages name the entry, never its value.
func decodeMcpStringMap(raw json.RawMessage) (map[string]string, error) {
	entries, err := decodeJSONObject(raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(entries))
	for _, k := range sortedKeys(entries) {
		v := bytes.TrimSpace(entries[k])
		switch mcpJSONKind(v) {
		case "a string":
			var s string
			_ = json.Unmarshal(v, &s)
			out[k] = s
		case "a number", "a boolean":
			out[k] = string(v)
		case "null":
		default:
			return nil, fmt.Errorf("entry %q must be a string, number or boolean, got %s", k, mcpJSONKind(v))
		}
	}
	return out, nil
}

// decodeMcpTimeout reads milliseconds; a non-number, zero or a negative value gives 0 (the
// default), a fraction is rounded up so a tiny timeout never becomes the default.
func decodeMcpTimeout(raw json.RawMessage) int {
	var f float64
	if json.Unmarshal(raw, &f) != nil || !(f > 0) {
		return 0
	}
	if f >= math.MaxInt32 {
		return math.MaxInt32
	}
	return int(math.Ceil(f))
}

func decodeToolsFilter(raw json.RawMessage) (map[string]bool, error) {
	entries, err := decodeJSONObject(raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(entries))
	for _, name := range sortedKeys(entries) {
		var b bool
		if json.Unmarshal(entries[name], &b) != nil {
			return nil, fmt.Errorf("entry %q must be true or false, got %s", name, mcpJSONKind(entries[name]))
		}
		out[name] = b
	}
	return out, nil
}

// jsonMember is one key of a JSON object with its raw value.
type jsonMember struct {
	key string
	raw json.RawMessage
}

// decodeOrderedObject reads a JSON object keeping its keys in written order. A repeated key
// keeps its first position and its last value, as JSON.parse does.
func decodeOrderedObject(data []byte) ([]jsonMember, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		if err == nil {
			err = errors.New("not valid JSON")
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("must be a JSON object, got %s", mcpJSONKind(t))
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	var out []jsonMember
	at := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		if i, seen := at[key]; seen {
			out[i].raw = raw
			continue
		}
		at[key] = len(out)
		out = append(out, jsonMember{key: key, raw: raw})
	}
	return out, nil
}

// decodeJSONObject insists on a JSON object so a list or scalar is reported, not ignored.
func decodeJSONObject(data []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		var syntaxErr *json.SyntaxError
		if errors.As(err, &syntaxErr) || !json.Valid(data) {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		return nil, fmt.Errorf("must be a JSON object, got %s", mcpJSONKind(data))
	}
	if m == nil {
		return nil, fmt.Errorf("must be a JSON object, got null")
	}
	return m, nil
}

func isMcpJSONNull(raw []byte) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// mcpJSONKind names a JSON value's kind for messages (never its content: it may be a secret).
func mcpJSONKind(raw []byte) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
