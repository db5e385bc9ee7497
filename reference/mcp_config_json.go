package toolnexus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// mcpSiblingKeys are other top-level sections a bare server map may sit beside.
var mcpSiblingKeys = []string{"builtins", "agents", "a2a", "mcpServer"}

// mcpWrapperKeys hold the server map when present, in priority order.
var mcpWrapperKeys = []string{"mcpServers", "servers", "mcp"}

func parseMcpJSON(data []byte, what string) (McpConfig, error) {
	top, err := decodeJSONObject(data)
	if err != nil {
		return nil, fmt.Errorf("toolnexus: %s: %w", what, err)
	}
	servers := top
	wrapped := false
	for _, key := range mcpWrapperKeys {
		raw, ok := top[key]
		if !ok {
			continue
		}
		wrapped = true
		if isMcpJSONNull(raw) {
			servers = nil
			break
		}
		if servers, err = decodeJSONObject(raw); err != nil {
			return nil, fmt.Errorf("toolnexus: %s: %q: %w", what, key, err)
		}
		break
	}
	if !wrapped {
		for _, key := range mcpSiblingKeys {
			delete(servers, key)
		}
	}
	cfg := make(McpConfig, len(servers))
	for _, name := range sortedKeys(servers) {
		var sc ServerConfig
		raw := servers[name]
		if isMcpJSONNull(raw) {
			err = fmt.Errorf("config is null, want an object")
		} else if err = json.Unmarshal(raw, &sc); err == nil {
			err = sc.validate()
		}
		if err != nil {
			return nil, fmt.Errorf("toolnexus: %s: server %q: %w", what, name, err)
		}
		cfg[name] = sc
	}
	return cfg, nil
}

// UnmarshalJSON decodes one server entry field by field so errors name the field.
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
		switch key {
		case "type":
			err = decodeMcpField(raw, &out.Type, "a string")
		case "url":
			err = decodeMcpField(raw, &out.URL, "a string")
		case "command":
			out.Command, cmdArgs, err = decodeMcpCommand(raw)
		case "args":
			err = decodeMcpField(raw, &out.Args, "an array of strings")
		case "env", "environment":
			err = decodeMcpField(raw, new(map[string]string), "an object of string values")
		case "cwd":
			err = decodeMcpField(raw, &out.Cwd, "a string")
		case "headers":
			err = decodeMcpField(raw, &out.Headers, "an object of string values")
		case "enabled":
			out.Enabled = new(bool)
			err = decodeMcpField(raw, out.Enabled, "true or false")
		case "disabled":
			err = decodeMcpField(raw, &out.Disabled, "true or false")
		case "timeout":
			out.Timeout, err = decodeMcpTimeout(raw)
		case "tools":
			out.Tools, err = decodeToolsFilter(raw)
		}
		if err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
	}
	// "environment" (the published spelling) wins over "env" on a shared key.
	for _, key := range []string{"env", "environment"} {
		if raw, ok := fields[key]; ok && !isMcpJSONNull(raw) {
			var m map[string]string
			_ = json.Unmarshal(raw, &m)
			if out.Env == nil {
				out.Env = map[string]string{}
			}
			for k, v := range m {
				out.Env[k] = v
			}
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

func decodeMcpTimeout(raw json.RawMessage) (int, error) {
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return 0, fmt.Errorf("must be a number of milliseconds, got %s", mcpJSONKind(raw))
	}
	if f < 0 || f > math.MaxInt32 || f != math.Trunc(f) {
		return 0, fmt.Errorf("must be a whole number of milliseconds between 0 and %d, got %v", math.MaxInt32, f)
	}
	return int(f), nil
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

// decodeJSONObject insists on a JSON object so a list or scalar is reported, not ignored.
func decodeJSONObject(data []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		if _, syntaxErr := err.(*json.SyntaxError); syntaxErr || !json.Valid(data) {
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

// mcpJSONKind names a JSON value's kind for error messages (never its content: it may be a secret).
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
