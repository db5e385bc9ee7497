package main

// The store area: the conversation store accessor.

// opStore serves the store ops through the client's accessor: an absent conversation is null;
// identity is pointer identity with the store the adapter passed (false with the default).
func opStore(a *adapter, x args, op string) (any, error) {
	e, err := a.lookupClient(x.Client)
	if err != nil {
		return nil, err
	}
	s := e.client.ConversationStore()
	if op == "store.identity" {
		return map[string]any{"same": e.hostStore != nil && s != nil && any(s) == any(e.hostStore)}, nil
	}
	if s == nil {
		return nil, adapterErr("failed", "adapter: ConversationStore() returned nil")
	}
	if op == "store.save" {
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
