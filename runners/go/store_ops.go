package main

import (
	"encoding/json"
	"errors"
)

// storeArgs mirrors args.store (store.get, store.identity).
type storeArgs struct {
	Client string `json:"client"`
	ID     string `json:"id"`
}

// storeSaveArgs mirrors args.store.save.
type storeSaveArgs struct {
	Client   string `json:"client"`
	ID       string `json:"id"`
	Messages []any  `json:"messages"`
}

// opStoreGet reads a transcript through the client's store accessor; an
// absent conversation is reported as null, as the port returns nil.
func opStoreGet(a *adapter, raw json.RawMessage) (any, error) {
	var args storeArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	entry, err := a.lookupClient(args.Client)
	if err != nil {
		return nil, err
	}
	store := entry.client.ConversationStore()
	if store == nil {
		return nil, errors.New("adapter: ConversationStore() returned nil")
	}
	msgs, err := store.Get(args.ID)
	if err != nil {
		return nil, err
	}
	var out any // nil slice -> JSON null
	if msgs != nil {
		out = msgs
	}
	return map[string]any{"messages": out}, nil
}

// opStoreSave writes a transcript through the client's store accessor.
func opStoreSave(a *adapter, raw json.RawMessage) (any, error) {
	var args storeSaveArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	entry, err := a.lookupClient(args.Client)
	if err != nil {
		return nil, err
	}
	store := entry.client.ConversationStore()
	if store == nil {
		return nil, errors.New("adapter: ConversationStore() returned nil")
	}
	msgs := args.Messages
	if msgs == nil {
		msgs = []any{}
	}
	if err := store.Save(args.ID, msgs); err != nil {
		return nil, err
	}
	return map[string]any{}, nil
}

// opStoreIdentity says whether the accessor hands back the very store the
// adapter passed (pointer identity through the interface); always false when
// the client was built with the default store.
func opStoreIdentity(a *adapter, raw json.RawMessage) (any, error) {
	var args storeArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	entry, err := a.lookupClient(args.Client)
	if err != nil {
		return nil, err
	}
	same := false
	if entry.hostStore != nil {
		got := entry.client.ConversationStore()
		same = got != nil && any(got) == any(entry.hostStore)
	}
	return map[string]any{"same": same}, nil
}
