package main

import (
	"context"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The memory area: the Conversation object (a stream with an id is client.run's).

func opConversation(a *adapter, x args, op string) (any, error) {
	if op == "conversation.create" {
		e, err := a.lookupClient(x.Client)
		if err != nil {
			return nil, err
		}
		tk := a.toolkits[x.Toolkit]
		if tk == nil && x.Toolkit != "" {
			return nil, adapterErr("failed", "adapter: unknown toolkit handle "+x.Toolkit)
		}
		if tk == nil {
			if tk, err = toolnexus.CreateToolkit(context.Background(), toolnexus.Options{Builtins: false}); err != nil {
				return nil, err
			}
			a.toolkits["conversation:"+x.Handle] = tk // closed with the rest
		}
		a.conversations[x.Handle] = e.client.Conversation(tk)
		return nil, nil
	}
	cv, ok := a.conversations[x.Conversation]
	if !ok {
		return nil, adapterErr("failed", "adapter: unknown conversation handle "+x.Conversation)
	}
	switch op {
	case "conversation.send":
		res, err := cv.Send(context.Background(), x.Prompt)
		if err != nil {
			return nil, err
		}
		return runReport(&res), nil
	case "conversation.reset":
		cv.Reset()
		return nil, nil
	}
	return map[string]any{"messages": cv.Messages}, nil
}
