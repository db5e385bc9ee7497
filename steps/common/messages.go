package common

import (
	"fmt"
	"strings"
)

// Helpers on the text of conversation messages and content blocks, and their order.

// MessageText flattens a message's content (a string or a list of blocks) to text.
func MessageText(msg any) string {
	m, _ := msg.(map[string]any)
	switch c := m["content"].(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, b := range c {
			bm, _ := b.(map[string]any)
			if s, ok := bm["text"].(string); ok {
				parts = append(parts, s)
			} else {
				parts = append(parts, JSONString(b))
			}
		}
		return strings.Join(parts, "")
	}
	return ""
}

// InOrder checks that each wanted text occurs in a later message than the one before.
func InOrder(texts, wants []string, what string) error {
	at := 0
	for _, want := range wants {
		found := false
		for at < len(texts) {
			at++
			if strings.Contains(texts[at-1], want) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s does not carry %q in order; its messages: %q", what, want, texts)
		}
	}
	return nil
}

// ContentText is a message's or block's content as text: a string as is, text blocks joined
// (Anthropic allows either for a tool_result).
func ContentText(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			if blk, _ := p.(map[string]any); blk["type"] == "text" {
				s, _ := blk["text"].(string)
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "")
	}
	return CompactJSON(v)
}
