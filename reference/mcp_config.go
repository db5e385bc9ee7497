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
