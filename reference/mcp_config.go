package toolnexus

import (
	"encoding/json"
	"fmt"
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
	// inferred: a URL makes it http (even beside a Command), else a Command makes it stdio.
	Type string `json:"type,omitempty"`
	// URL is the endpoint of an http or sse server.
	URL string `json:"url,omitempty"`
	// Command is the program a stdio server runs. JSON may give it as an array: first
	// element is the program, the rest are prepended to Args.
	Command string `json:"command,omitempty"`
	// Args are the stdio program's arguments.
	Args []string `json:"args,omitempty"`
	// Env is added to the inherited environment of a stdio server. From JSON it is the
	// "environment" object when that key is given (even empty), else the "env" object;
	// a number or boolean value is kept as its JSON text.
	Env map[string]string `json:"env,omitempty"`
	// Cwd is the stdio server's working directory.
	Cwd string `json:"cwd,omitempty"`
	// Headers are sent on every HTTP request; values expand ${ENV}. Never logged.
	Headers map[string]string `json:"headers,omitempty"`
	// Enabled false turns the server off (nil means on). From JSON only a boolean counts.
	Enabled *bool `json:"enabled,omitempty"`
	// Disabled true turns the server off, whatever Enabled says.
	Disabled bool `json:"disabled,omitempty"`
	// Timeout bounds each load phase, in milliseconds; 0 or less means 30000. From JSON a
	// value that is not a number is ignored.
	Timeout int `json:"timeout,omitempty"`
	// Tools filters the server's tools by ORIGINAL name: nil or empty = all, any true =
	// allowlist of the true names, only false entries = drop-list.
	Tools map[string]bool `json:"tools,omitempty"`

	// problem is why the entry, as written, cannot be loaded; a load reports the server
	// failed instead of connecting. It never quotes a header or environment value.
	problem error
}

// McpConfig maps server name to its config, as in the published port.
type McpConfig map[string]ServerConfig

// mcpEntry is one named server in the order a load walks them.
type mcpEntry struct {
	name string
	cfg  ServerConfig
}

// ParseMcpConfig reads a file path (string), raw JSON ([]byte), a McpConfig or an inline map.
// Only a config that cannot be read as a whole is an error; a malformed server entry is
// kept, and a load reports that server failed.
func ParseMcpConfig(input any) (McpConfig, error) {
	entries, err := parseMcpEntries(input)
	if err != nil {
		return nil, err
	}
	cfg := make(McpConfig, len(entries))
	for _, e := range entries {
		cfg[e.name] = e.cfg
	}
	return cfg, nil
}

// parseMcpEntries is ParseMcpConfig keeping the order the servers are written in: a file or
// raw JSON keeps its own order, a Go map (which has none) is walked in sorted name order.
func parseMcpEntries(input any) ([]mcpEntry, error) {
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
		return mcpEntriesOf(v), nil
	case map[string]ServerConfig:
		return mcpEntriesOf(v), nil
	case map[string]any:
		// Go values (ints, []string, nested maps) are normalised through JSON so one parser
		// gives one set of rules and messages.
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("toolnexus: inline MCP config: %w", err)
		}
		return parseMcpJSON(data, "inline MCP config")
	default:
		return nil, fmt.Errorf("toolnexus: unsupported MCP config type %T (want a file path, []byte JSON, McpConfig or map[string]any)", input)
	}
}

func mcpEntriesOf(in map[string]ServerConfig) []mcpEntry {
	out := make([]mcpEntry, 0, len(in))
	for _, name := range sortedKeys(in) {
		out = append(out, mcpEntry{name: name, cfg: in[name]})
	}
	return out
}

// check is why a load cannot use the entry: a problem found while reading it, else what
// validate finds. A switched-off entry is never checked.
func (c ServerConfig) check() error {
	if c.problem != nil {
		return c.problem
	}
	return c.validate()
}

// validate checks what a load needs; a switched-off server need not say how to reach it.
func (c ServerConfig) validate() error {
	kind, err := c.kind()
	if err != nil {
		return err
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

// kind normalises Type, inferring it from URL/Command; "" means nothing to go on. An
// explicit type wins over what the fields suggest.
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

// isEnabled: disabled true wins, else enabled false turns the server off.
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

// ExpandEnvHeaders returns a copy with ${NAME} in each value replaced from the environment;
// an unset NAME gives "". $NAME and ${NAME:-default} are left as written.
func ExpandEnvHeaders(headers map[string]string) map[string]string {
	out, _ := expandMcpHeaders(headers)
	return out
}

// expandMcpHeaders is ExpandEnvHeaders that also returns what the expansion put in: the
// values a message about this server must never show.
func expandMcpHeaders(headers map[string]string) (map[string]string, []string) {
	if headers == nil {
		return nil, nil
	}
	out := make(map[string]string, len(headers))
	var secrets []string
	for k, v := range headers {
		expanded := mcpEnvRefRe.ReplaceAllStringFunc(v, func(ref string) string {
			val := os.Getenv(ref[2 : len(ref)-1])
			// A very short value would blank ordinary words out of every message; the
			// whole expanded header is hidden anyway.
			if len(val) >= 4 {
				secrets = append(secrets, val)
			}
			return val
		})
		if expanded != v && expanded != "" {
			secrets = append(secrets, expanded)
		}
		out[k] = expanded
	}
	return out, secrets
}
