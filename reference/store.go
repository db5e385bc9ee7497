package toolnexus

import (
	"context"
	"sync"
)

// ConversationStore keeps Ask/StreamWithID transcripts by conversation id.
type ConversationStore interface {
	// Get returns the transcript saved under id, or nil when there is none.
	Get(id string) ([]any, error)
	// Save replaces the transcript kept under id.
	Save(id string, messages []any) error
}

// InMemoryConversationStore is the default store: process-local and safe for concurrent use.
type InMemoryConversationStore struct {
	mu    sync.Mutex
	convs map[string][]any
}

// NewInMemoryConversationStore returns an empty in-memory store.
func NewInMemoryConversationStore() *InMemoryConversationStore {
	return &InMemoryConversationStore{convs: map[string][]any{}}
}

// Get returns a copy of id's transcript, so a caller's edits never reach the store.
func (s *InMemoryConversationStore) Get(id string) ([]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs, ok := s.convs[id]
	if !ok {
		return nil, nil
	}
	return copyMessages(msgs), nil
}

// Save keeps a copy of messages, so later edits by the caller do not rewrite history.
func (s *InMemoryConversationStore) Save(id string, messages []any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.convs[id] = copyMessages(messages)
	return nil
}

// copyMessages deep-copies a transcript; the messages are nested maps that
// a shallow copy would still share.
func copyMessages(msgs []any) []any {
	out := make([]any, len(msgs))
	for i, m := range msgs {
		out[i] = deepCopy(m)
	}
	return out
}

// Conversation is a transcript that grows with each Send (§8 Conversation memory): the
// stateful wrapper over RunWithHistory. Not safe for concurrent Sends.
type Conversation struct {
	client *Client
	tk     *Toolkit
	// Messages is the transcript so far, fit to pass as history.
	Messages []any
}

// Conversation starts an empty conversation on this client and toolkit.
func (c *Client) Conversation(tk *Toolkit) *Conversation { return &Conversation{client: c, tk: tk} }

// Send continues the transcript with prompt; on success the run's messages become it.
func (cv *Conversation) Send(ctx context.Context, prompt string) (RunResult, error) {
	res, err := cv.client.RunWithHistory(ctx, prompt, cv.tk, cv.Messages)
	if err == nil {
		cv.Messages = res.Messages
	}
	return res, err
}

// Reset forgets the transcript.
func (cv *Conversation) Reset() { cv.Messages = nil }
