package main

import toolnexus "github.com/muthuishere/toolnexus/golang"

// The store area: the conversation store accessor, and the host's own store (store: host)
// that client.create passes.

var storeArea = registerArea(area{name: "store", clientOptions: optionOf(hostStore),
	ops: map[string]opFunc{"store.get": op(storeOp), "store.save": op(storeOp), "store.identity": op(storeOp)}})

// storeOption is client.create's store choice.
type storeOption struct{ Store string }

// hostStore passes a store of the host's for store: host and keeps it, for store.identity,
// under the client's handle; any other choice forgets one an earlier client of that handle had.
func hostStore(k *kit, client string, x storeOption, opts *toolnexus.ClientOptions) error {
	if x.Store != "host" {
		release[*toolnexus.InMemoryConversationStore](k.handles, client)
		return nil
	}
	s := toolnexus.NewInMemoryConversationStore()
	keep(k.handles, client, s, nil)
	opts.Store = s
	return nil
}

type storeArgs struct {
	Client, ID string
	Messages   []any
}

// storeOp serves the store ops through the client's accessor: an absent conversation is null;
// identity is pointer identity with the store the adapter passed (false with the default).
func storeOp(k *kit, x storeArgs, r request) (any, error) {
	c, err := lookup[*toolnexus.Client](k.handles, x.Client)
	if err != nil {
		return nil, err
	}
	s := c.ConversationStore()
	if r.Op == "store.identity" {
		mine, err := lookup[*toolnexus.InMemoryConversationStore](k.handles, x.Client)
		return map[string]any{"same": err == nil && s != nil && any(s) == any(mine)}, nil
	}
	if s == nil {
		return nil, adapterErr("failed", "adapter: ConversationStore() returned nil")
	}
	if r.Op == "store.save" {
		if x.Messages == nil {
			x.Messages = []any{}
		}
		return nil, s.Save(x.ID, x.Messages)
	}
	msgs, err := s.Get(x.ID)
	if err != nil || msgs == nil {
		return map[string]any{"messages": nil}, err
	}
	return map[string]any{"messages": msgs}, nil
}
