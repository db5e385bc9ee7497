package toolnexus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"
)

// defaultMcpTimeoutMs bounds each MCP phase when a server names no timeout.
const defaultMcpTimeoutMs = 30000

// Normalised transport kinds; the config also accepts local/remote (the shared fixture's words).
const (
	mcpKindStdio = "stdio"
	mcpKindHTTP  = "http"
	mcpKindSSE   = "sse"
)

// ServerConfig is one MCP server entry; the transport is inferred when Type is empty.
type ServerConfig struct {
	// Type is stdio, http or sse ("local" and "remote" are accepted aliases); empty means
	// inferred: a URL makes it http, a Command makes it stdio.
	Type string `json:"type,omitempty"`
	// URL is the endpoint of an http or sse server.
	URL string `json:"url,omitempty"`
	// Command is the program a stdio server runs. JSON may give it as an array: first
	// element is the program, the rest are prepended to Args.
	Command string `json:"command,omitempty"`
	// Args are the stdio program's arguments.
	Args []string `json:"args,omitempty"`
	// Env is added to the inherited environment of a stdio server (JSON "env" or "environment").
	Env map[string]string `json:"env,omitempty"`
	// Cwd is the stdio server's working directory.
	Cwd string `json:"cwd,omitempty"`
	// Headers are sent on every HTTP request; values expand ${ENV}. Never logged.
	Headers map[string]string `json:"headers,omitempty"`
	// Enabled false turns the server off (nil means on).
	Enabled *bool `json:"enabled,omitempty"`
	// Disabled true turns the server off.
	Disabled bool `json:"disabled,omitempty"`
	// Timeout bounds each load phase, in milliseconds; 0 means 30000.
	Timeout int `json:"timeout,omitempty"`
	// Tools filters the server's tools by ORIGINAL name: nil or empty = all, any true =
	// allowlist of the true names, only false entries = drop-list.
	Tools map[string]bool `json:"tools,omitempty"`
}

// McpConfig maps server name to its config, as in the published port.
type McpConfig map[string]ServerConfig

// mcpSiblingKeys are other top-level sections a bare server map may sit beside.
var mcpSiblingKeys = []string{"builtins", "agents", "a2a", "mcpServer"}

// mcpWrapperKeys hold the server map when present, in priority order.
var mcpWrapperKeys = []string{"mcpServers", "servers", "mcp"}

// ParseMcpConfig reads a file path (string), raw JSON ([]byte), a McpConfig or an inline map.
func ParseMcpConfig(input any) (McpConfig, error) {
	switch v := input.(type) {
	case nil:
		return nil, fmt.Errorf("toolnexus: no MCP config given")
	case string:
		if v == "" {
			return nil, fmt.Errorf("toolnexus: MCP config path is empty")
		}
		data, err := os.ReadFile(v)
		if err != nil {
			return nil, fmt.Errorf("toolnexus: read MCP config %q: %w", v, err)
		}
		return parseMcpJSON(data, fmt.Sprintf("MCP config %q", v))
	case []byte:
		return parseMcpJSON(v, "MCP config")
	case json.RawMessage:
		return parseMcpJSON(v, "MCP config")
	case McpConfig:
		return checkedMcpCopy(v)
	case map[string]ServerConfig:
		return checkedMcpCopy(v)
	case map[string]any:
		// Go values (ints, []string, nested maps) are normalised through JSON so one parser
		// gives one set of rules and error messages.
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("toolnexus: inline MCP config: %w", err)
		}
		return parseMcpJSON(data, "inline MCP config")
	default:
		return nil, fmt.Errorf("toolnexus: unsupported MCP config type %T (want a file path, []byte JSON, McpConfig or map[string]any)", input)
	}
}

func checkedMcpCopy(in map[string]ServerConfig) (McpConfig, error) {
	out := make(McpConfig, len(in))
	for _, name := range sortedKeys(in) {
		if err := in[name].validate(); err != nil {
			return nil, fmt.Errorf("toolnexus: MCP config: server %q: %w", name, err)
		}
		out[name] = in[name]
	}
	return out, nil
}

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

// validate checks what a load needs; a switched-off server need not say how to reach it.
func (c ServerConfig) validate() error {
	kind, err := c.kind()
	if err != nil {
		return err
	}
	if c.Timeout < 0 {
		return fmt.Errorf("\"timeout\" must not be negative, got %d", c.Timeout)
	}
	if !c.isEnabled() {
		return nil
	}
	switch kind {
	case "":
		return fmt.Errorf("needs \"url\" (http/sse) or \"command\" (stdio)")
	case mcpKindStdio:
		if c.Command == "" {
			return fmt.Errorf("type %q needs \"command\"", c.Type)
		}
	default:
		if c.URL == "" {
			return fmt.Errorf("type %q needs \"url\"", c.Type)
		}
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("\"url\" %q is not an http(s) URL", c.URL)
		}
	}
	return nil
}

// kind normalises Type, inferring it from URL/Command; "" means nothing to go on.
func (c ServerConfig) kind() (string, error) {
	switch strings.ToLower(strings.TrimSpace(c.Type)) {
	case "":
		if c.URL != "" {
			return mcpKindHTTP, nil
		}
		if c.Command != "" {
			return mcpKindStdio, nil
		}
		return "", nil
	case "stdio", "local":
		return mcpKindStdio, nil
	case "http", "remote", "streamable-http", "streamablehttp":
		return mcpKindHTTP, nil
	case "sse":
		return mcpKindSSE, nil
	default:
		return "", fmt.Errorf("unknown \"type\" %q (want stdio, http or sse)", c.Type)
	}
}

func (c ServerConfig) isEnabled() bool {
	return !c.Disabled && (c.Enabled == nil || *c.Enabled)
}

func (c ServerConfig) timeout() time.Duration {
	if c.Timeout > 0 {
		return time.Duration(c.Timeout) * time.Millisecond
	}
	return defaultMcpTimeoutMs * time.Millisecond
}

var mcpEnvRefRe = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// ExpandEnvHeaders returns a copy with ${NAME} in each value replaced from the environment.
func ExpandEnvHeaders(headers map[string]string) map[string]string {
	if headers == nil {
		return nil
	}
	out := make(map[string]string, len(headers))
	for k, v := range headers {
		out[k] = mcpEnvRefRe.ReplaceAllStringFunc(v, func(ref string) string {
			return os.Getenv(ref[2 : len(ref)-1])
		})
	}
	return out
}

// decodeObject insists on a JSON object so a list or scalar is reported, not ignored.
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

// jsonKind names a JSON value's kind for error messages (never its content: it may be a secret).
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
