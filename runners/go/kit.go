package main

import (
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// portVersion is stamped by prepare (-ldflags -X main.portVersion=...) with a label for the
// port it built against, e.g. a git tag.
var portVersion = "unknown"

// args holds every op's arguments (field names match case-insensitively); the runner has
// checked them against the schema, so an op reads only what it uses.
type args struct {
	Handle, Client, Toolkit, Prompt, ID, Style, Model, Store string
	BaseURL                                                  string `json:"baseUrl"`
	APIKey                                                   string `json:"apiKey"`
	HTTPClient                                               string `json:"httpClient"`
	HTTPTimeoutMs                                            int    `json:"httpTimeoutMs"`
	SystemPrompt                                             string
	MaxTurns                                                 int
	RequestParams                                            map[string]any
	BodyTransform, BeforeLLM, Stream                         bool
	AfterLLM, BeforeTool, AfterTool                          bool   // client.create: the hooks area's stubs
	History                                                  *[]any // [] and absent differ
	Messages                                                 []any
	McpConfig                                                *struct {
		File   *string
		Inline map[string]any
	}
	ExtraTools []extraTool
	// toolkit.create: the builtins option as given (absent: off); builtinsDefault: none at all.
	Builtins        json.RawMessage
	BuiltinsDefault bool
	// toolkit.create's skill source (absent: off); skills.list's roots.
	SkillsDir        []string
	SkillSampleLimit int
	SkillsFilter     map[string]bool
	Dirs             []string
	// tool.execute: the tool's name and its args, kept raw so absent, null and numbers survive.
	Name                      string
	Args                      json.RawMessage
	Value                     string // sanitize
	CancelAfterMs, DeadlineMs *int64
	Context                   *bool
	// client.create's resilience options; retries is a pointer since 0 and absent differ.
	Retries                *int
	RetryBaseMs, TimeoutMs int
	OnError, OnText        bool
	Conversation           string
	// the suspension area: client.create's waitFor, toolkit.create's suspending tools.
	WaitFor         bool
	SuspendingTools []suspendingTool
	// client.translate's request: tools and toolChoice as given, system only when sent.
	Tools      []any
	ToolChoice any
	System     *string
	MaxTokens  int
}

// adapter holds the handles that live between requests; requests are served one at a time.
type adapter struct {
	host     *host
	clients  map[string]*clientEntry
	toolkits map[string]*toolnexus.Toolkit
	// conversations are the memory area's Conversation objects.
	conversations map[string]*toolnexus.Conversation
}

type clientEntry struct {
	client    *toolnexus.Client
	hostStore *toolnexus.InMemoryConversationStore // the store passed as store: host
}

func newAdapter(h *host) *adapter {
	return &adapter{host: h, clients: map[string]*clientEntry{}, toolkits: map[string]*toolnexus.Toolkit{},
		conversations: map[string]*toolnexus.Conversation{}}
}

// closeAll closes every toolkit so stdio children do not outlive the adapter; bounded,
// because the runner kills the process group anyway.
func (a *adapter) closeAll(limit time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		maps.Values(a.toolkits)(func(tk *toolnexus.Toolkit) bool { tk.Close(); return true })
	}()
	select {
	case <-done:
	case <-time.After(limit):
	}
}

func opHello(a *adapter, x args, _ string) (any, error) {
	return map[string]any{"port": "go", "library": "toolnexus", "version": portVersion, "runtime": runtime.Version(),
		"ops": slices.Sorted(maps.Keys(ops)), "slots": slots}, nil
}

func (a *adapter) lookupClient(handle string) (*clientEntry, error) {
	if e, ok := a.clients[handle]; ok {
		return e, nil
	}
	return nil, adapterErr("failed", "adapter: unknown client handle "+handle)
}
