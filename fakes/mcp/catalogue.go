package mcpfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Catalogue names: what a fake MCP server lists. Every transport takes one (stdio
// --catalogue, HTTPOptions.Catalogue); "" is CatalogueDefault.
const (
	// CatalogueDefault is the original fake: tools a, b, c and get.balance, each answering
	// "<name>:ok".
	CatalogueDefault = "default"
	// CatalogueAwkward has names that sanitize badly (C2). Every tool, echo included,
	// answers as echo does (EchoOutput), so a caller sees which original name ran.
	CatalogueAwkward = "awkward"
	// CatalogueResults has one tool per result shape (C4), plus echo.
	CatalogueResults = "results"
	// CatalogueSchema has one tool per input-schema variant (C5.8).
	CatalogueSchema = "schema"
	// CataloguePaged lists 5 tools over 3 pages of tools/list (2+2+1) linked by nextCursor.
	CataloguePaged = "paged"
	// CatalogueEnv has env (stdio only: the child's view of its environment and cwd) and
	// echo.
	CatalogueEnv = "env"
	// CatalogueRendering has two structuredContent tools wider than C4's examples: every
	// JSON type, nesting, string escapes and non-ASCII (r_struct_all), number edges (r_num_edges).
	CatalogueRendering = "rendering"
)

// Catalogues lists every catalogue name, CatalogueDefault first.
func Catalogues() []string {
	return []string{CatalogueDefault, CatalogueAwkward, CatalogueResults, CatalogueSchema, CataloguePaged, CatalogueEnv, CatalogueRendering}
}

// ValidCatalogue reports whether name is a catalogue ("" is the default).
func ValidCatalogue(name string) bool { return name == "" || slices.Contains(Catalogues(), name) }

// LongToolName is the awkward catalogue's 70-character tool name.
const LongToolName = "long_name_012345678901234567890123456789012345678901234567890123456789"

// Raw structuredContent the results tools send, byte for byte as written here (the wire
// form is this JSON compacted, with <, & and > escaped as \u003c, \u0026, \u003e; key order
// and number literals are kept).
const (
	StructRaw      = `{"z":1,"a":"é<&>","e":"🚀","n":[true,null],"o":{"y":2,"x":1}}` // r_struct
	StructErrRaw   = `{"ok":false,"why":"struct failed"}`                           // r_struct_err
	StructEmptyRaw = `{}`                                                           // r_struct_empty
	NumRaw         = `{"f":1.0,"g":1e2,"h":-0.5,"i":1.5e-7}`                        // r_num
	BadOutRaw      = `{"n":"x"}`                                                    // r_badout: breaks BadOutSchema
	// StructAllRaw (r_struct_all): every JSON type, empty and nested containers, a non-ASCII
	// and an empty key, and a string holding every escape JSON has, DEL, U+2028/U+2029 and
	// non-ASCII written as \u escapes (a surrogate pair for the rocket).
	StructAllRaw = `{"s":"q\"b\\s\/e\b\f\n\r\t c\u0001\u001f d\u007f l\u2028p\u2029 \u00e9\ud83d\ude80 ü","e":[],"o":{},"n":null,"t":true,"f":false,"a":[[],{},null,[{"k":[null]}]],"ü":"key non-ASCII","":"empty key"}`
	// NumEdgesRaw (r_num_edges): negative zero, exponents both ways past JavaScript's
	// switch-over points (1e21, 1e-7), the extremes of a double, a sum that is not exact.
	NumEdgesRaw  = `{"z":-0,"p":0.1,"big":1e21,"bigger":1.5E+300,"small":1E-7,"smaller":123e-20,"tiny":5e-324,"max":1.7976931348623157e308,"int":-42,"exp":2e0,"frac":0.30000000000000004,"under":0.000001,"over":100000000000000000000,"neg":-1.25e-10}`
	BadOutSchema = `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`
)

// RPCErrorMessage is the message of the JSON-RPC error r_rpcerr answers with (code -32603).
const RPCErrorMessage = "rpc-broke"

// DieExitCode is the exit status of a stdio fake whose r_die tool was called.
const DieExitCode = 3

// ToolInfo is one tool as a fake lists it.
type ToolInfo struct {
	Name        string
	Description string
	// InputSchema is the exact JSON the fake sends as the tool's inputSchema.
	InputSchema json.RawMessage
	// OutputSchema is the tool's outputSchema, nil when it declares none.
	OutputSchema json.RawMessage
	// StdioOnly tools (env, r_die) are listed by the stdio fake only.
	StdioOnly bool
}

// Schema is InputSchema decoded as a client decodes it (objects are map[string]any).
func (t ToolInfo) Schema() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(t.InputSchema, &m)
	return m
}

// catalogueTool is a ToolInfo and what calling it does.
type catalogueTool struct {
	ToolInfo
	call func(ctx context.Context, req *mcp.CallToolRequest, env *toolEnv) (*mcp.CallToolResult, error)
}

// toolEnv is what a tool may need from the process serving it.
type toolEnv struct {
	die func() // ends the process at once (stdio only)
}

const (
	emptySchema = `{"type":"object","properties":{}}`
	echoSchema  = `{"type":"object","properties":{},"additionalProperties":true}`
)

// catalogue returns the tools of a catalogue in listing order, or nil for an unknown name.
func catalogue(name string) []catalogueTool {
	switch name {
	case "", CatalogueDefault:
		out := make([]catalogueTool, len(toolSpecs))
		for i, t := range toolSpecs {
			b, _ := json.Marshal(t.schema)
			out[i] = catalogueTool{
				ToolInfo: ToolInfo{Name: t.name, Description: Description(t.name), InputSchema: b},
				call:     textTool(t.name + ":ok"),
			}
		}
		return out
	case CatalogueAwkward:
		names := []string{"get.balance", "send money", "café", "🚀launch", "2fa", "a.b", "a_b", "t", "y.t", "patch", LongToolName}
		var out []catalogueTool
		for _, n := range names {
			out = append(out, catalogueTool{
				ToolInfo: ToolInfo{Name: n, Description: Description(n), InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)},
				call:     echoTool,
			})
		}
		return append(out, echo())
	case CatalogueResults:
		return []catalogueTool{
			result("r_text2", "", false, text("one"), text("two")),
			result("r_err2", "", true, text("bad"), text("worse")),
			result("r_err_blank", "", true, text(""), text("  ")),
			result("r_struct", StructRaw, false, text("ignored")),
			result("r_struct_err", StructErrRaw, true, text("struct failed")),
			result("r_struct_empty", StructEmptyRaw, false, text("t")),
			result("r_num", NumRaw, false),
			result("r_image", "", false, image()),
			result("r_mixed", "", false, text("A"), image(), &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "fake://resource/1", MIMEType: "text/plain", Text: "resource text",
			}}, text("B")),
			func() catalogueTool {
				t := result("r_badout", BadOutRaw, false)
				t.OutputSchema = json.RawMessage(BadOutSchema)
				return t
			}(),
			{
				ToolInfo: ToolInfo{Name: "r_rpcerr", Description: Description("r_rpcerr"), InputSchema: json.RawMessage(emptySchema)},
				call: func(context.Context, *mcp.CallToolRequest, *toolEnv) (*mcp.CallToolResult, error) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: RPCErrorMessage}
				},
			},
			{
				ToolInfo: ToolInfo{Name: "r_die", Description: Description("r_die"), InputSchema: json.RawMessage(emptySchema), StdioOnly: true},
				call: func(ctx context.Context, _ *mcp.CallToolRequest, env *toolEnv) (*mcp.CallToolResult, error) {
					if env.die != nil {
						env.die()
					}
					// Never reached in a stdio process; anywhere else the call is left
					// unanswered until the session ends.
					<-ctx.Done()
					return nil, ctx.Err()
				},
			},
			echo(),
		}
	case CatalogueSchema:
		variants := []struct{ name, schema string }{
			// Keys beyond type/properties/required, which a port must keep.
			{"s_keys", `{"title":"Keys","description":"a schema with extra top-level keys","$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`},
			// definitions with a $ref into them: dropping definitions breaks the $ref.
			{"s_ref", `{"type":"object","definitions":{"point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},"properties":{"p":{"$ref":"#/definitions/point"}},"required":["p"]}`},
			{"s_anyof", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`},
			{"s_required_empty", `{"type":"object","properties":{"x":{"type":"string"}},"required":[]}`},
			{"s_additional", `{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":true}`},
			{"s_no_properties", `{"type":"object"}`},
		}
		var out []catalogueTool
		for _, v := range variants {
			out = append(out, catalogueTool{
				ToolInfo: ToolInfo{Name: v.name, Description: Description(v.name), InputSchema: json.RawMessage(v.schema)},
				call:     echoTool,
			})
		}
		return out
	case CataloguePaged:
		// The SDK pages in name order, so these names sort in page order.
		var out []catalogueTool
		for _, n := range []string{"page1_a", "page1_b", "page2_a", "page2_b", "page3_a"} {
			out = append(out, catalogueTool{
				ToolInfo: ToolInfo{Name: n, Description: Description(n), InputSchema: json.RawMessage(emptySchema)},
				call:     echoTool,
			})
		}
		return out
	case CatalogueRendering:
		return []catalogueTool{result("r_struct_all", StructAllRaw, false, text("ignored")), result("r_num_edges", NumEdgesRaw, false)}
	case CatalogueEnv:
		return []catalogueTool{{
			ToolInfo: ToolInfo{Name: "env", Description: Description("env"), InputSchema: json.RawMessage(emptySchema), StdioOnly: true},
			call: func(context.Context, *mcp.CallToolRequest, *toolEnv) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{text(EnvOutput())}}, nil
			},
		}, echo()}
	}
	return nil
}

// pageSize is the tools/list page size of a catalogue (0: the SDK default, one page).
func pageSize(name string) int {
	if name == CataloguePaged {
		return 2
	}
	return 0
}

// CataloguePageSize is how many tools one tools/list page of the catalogue holds; 0 means
// the whole list comes in one page.
func CataloguePageSize(name string) int { return pageSize(name) }

// CatalogueTools returns what a fake serving the catalogue lists, in listing order (page
// order for the paged one), on stdio or on HTTP (streamable and SSE list the same), or nil
// for an unknown catalogue.
func CatalogueTools(name string, stdio bool) []ToolInfo {
	var out []ToolInfo
	for _, t := range catalogue(name) {
		if t.StdioOnly && !stdio {
			continue
		}
		ti := t.ToolInfo
		ti.InputSchema = slices.Clone(ti.InputSchema)
		ti.OutputSchema = slices.Clone(ti.OutputSchema)
		out = append(out, ti)
	}
	return out
}

// CatalogueToolNames is the names of CatalogueTools, in listing order.
func CatalogueToolNames(name string, stdio bool) []string {
	var out []string
	for _, t := range CatalogueTools(name, stdio) {
		out = append(out, t.Name)
	}
	return out
}

// ServerOptions choose what a fake MCP server lists and how fast it answers, on any
// transport.
type ServerOptions struct {
	// Catalogue names the tools listed (a Catalogue constant; "" is the default).
	Catalogue string
	// ListDelay holds every tools/list answer back this long.
	ListDelay time.Duration
	// InitDelay holds the server's first handshake answer back this long: initialize, or
	// server/discover when a client asks that first (go-sdk 1.8 clients send both, so
	// holding each would make the handshake take twice what the scenario says).
	InitDelay time.Duration
}

// NewServerWith returns the go-sdk server "fake-mcp" serving opts.Catalogue as listed by
// CatalogueTools(opts.Catalogue, false), with opts' delays.
func NewServerWith(opts ServerOptions) (*mcp.Server, error) {
	return newServer(opts, false, &toolEnv{})
}

func newServer(opts ServerOptions, stdio bool, env *toolEnv) (*mcp.Server, error) {
	tools := catalogue(opts.Catalogue)
	if tools == nil {
		return nil, fmt.Errorf("unknown catalogue %q: want one of %s", opts.Catalogue, strings.Join(Catalogues(), ", "))
	}
	if opts.ListDelay < 0 || opts.InitDelay < 0 {
		return nil, fmt.Errorf("negative delay")
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-mcp", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: pageSize(opts.Catalogue)})
	order := map[string]int{}
	for i, t := range tools {
		if t.StdioOnly && !stdio {
			continue
		}
		order[t.Name] = i
		tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		if t.OutputSchema != nil {
			tool.OutputSchema = t.OutputSchema
		}
		call := t.call
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return call(ctx, req, env)
		})
	}
	s.AddReceivingMiddleware(behave(opts, order))
	return s, nil
}

// behave delays the handshake and tools/list as opts say, and puts each tools/list page in
// the catalogue's order (the SDK lists in name order).
func behave(opts ServerOptions, order map[string]int) mcp.Middleware {
	var held atomic.Bool // the handshake has been held once
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			var d time.Duration
			switch {
			case slices.Contains(phaseMethods[PhaseInitialize], method):
				if !held.Swap(true) {
					d = opts.InitDelay
				}
			case method == "tools/list":
				d = opts.ListDelay
			}
			if d > 0 {
				t := time.NewTimer(d)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return nil, ctx.Err()
				}
			}
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				slices.SortStableFunc(lr.Tools, func(a, b *mcp.Tool) int { return order[a.Name] - order[b.Name] })
			}
			return res, err
		}
	}
}

func text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

// tinyPNG is a 1x1 transparent PNG.
var tinyPNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}

func image() *mcp.ImageContent { return &mcp.ImageContent{Data: tinyPNG, MIMEType: "image/png"} }

func textTool(s string) func(context.Context, *mcp.CallToolRequest, *toolEnv) (*mcp.CallToolResult, error) {
	return func(context.Context, *mcp.CallToolRequest, *toolEnv) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{text(s)}}, nil
	}
}

// result is a tool answering with content, isError and (unless empty) the raw
// structuredContent.
func result(name, structured string, isError bool, content ...mcp.Content) catalogueTool {
	return catalogueTool{
		ToolInfo: ToolInfo{Name: name, Description: Description(name), InputSchema: json.RawMessage(emptySchema)},
		call: func(context.Context, *mcp.CallToolRequest, *toolEnv) (*mcp.CallToolResult, error) {
			r := &mcp.CallToolResult{Content: append([]mcp.Content{}, content...), IsError: isError}
			if structured != "" {
				r.StructuredContent = json.RawMessage(structured)
			}
			return r, nil
		},
	}
}

func echo() catalogueTool {
	return catalogueTool{
		ToolInfo: ToolInfo{Name: "echo", Description: Description("echo"), InputSchema: json.RawMessage(echoSchema)},
		call:     echoTool,
	}
}

func echoTool(_ context.Context, req *mcp.CallToolRequest, _ *toolEnv) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{text(EchoOutput(req.Params.Name, req.Params.Arguments))}}, nil
}

// EchoOutput is the one text part an echo-style tool answers a tools/call with:
//
//	{"name":<the name it was called by>,"arguments":<the arguments exactly as received>}
//
// name is a JSON string (not HTML-escaped); the arguments are the bytes of the request's
// "arguments" value exactly as they arrived (whitespace, key order and number spelling
// kept, so 9007199254740993 or 1.0 shows as sent). When the request had no "arguments" key
// the text is {"name":<name>} alone; an explicit null shows as "arguments":null.
func EchoOutput(name string, rawArgs []byte) string {
	var b strings.Builder
	b.WriteString(`{"name":`)
	b.WriteString(jsonString(name))
	if rawArgs != nil {
		b.WriteString(`,"arguments":`)
		b.Write(rawArgs)
	}
	b.WriteString("}")
	return b.String()
}

// EnvVars are the environment variables the env tool reports, in its output's key order.
var EnvVars = []string{"TNX_FOO", "TNX_PARENT"}

// EnvOutput is what the env tool answers in this process:
//
//	{"TNX_FOO":<string or null>,"TNX_PARENT":<string or null>,"cwd":<the working directory>}
//
// null means the variable is unset; cwd is os.Getwd's answer (null if it fails).
func EnvOutput() string {
	var b strings.Builder
	b.WriteString("{")
	for _, k := range EnvVars {
		b.WriteString(jsonString(k) + ":")
		if v, ok := os.LookupEnv(k); ok {
			b.WriteString(jsonString(v))
		} else {
			b.WriteString("null")
		}
		b.WriteString(",")
	}
	b.WriteString(`"cwd":`)
	if wd, err := os.Getwd(); err == nil {
		b.WriteString(jsonString(wd))
	} else {
		b.WriteString("null")
	}
	b.WriteString("}")
	return b.String()
}

func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}
