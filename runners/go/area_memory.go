package main

import (
	"context"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The memory area: the Conversation object (a stream with an id is client.run's).

var memoryArea = registerArea(area{name: "memory", ops: map[string]opFunc{"conversation.create": op(conversationOp),
	"conversation.send": op(conversationOp), "conversation.reset": op(conversationOp), "conversation.messages": op(conversationOp)}})

type conversationArgs struct {
	Handle, Client, Toolkit, Conversation, Prompt string
}

func conversationOp(k *kit, x conversationArgs, r request) (any, error) {
	if r.Op == "conversation.create" {
		c, err := lookup[*toolnexus.Client](k.handles, x.Client)
		if err != nil {
			return nil, err
		}
		var tk *toolnexus.Toolkit
		if x.Toolkit != "" {
			if tk, err = lookup[*toolnexus.Toolkit](k.handles, x.Toolkit); err != nil {
				return nil, err
			}
		} else {
			if tk, err = toolnexus.CreateToolkit(context.Background(), toolnexus.Options{Builtins: false}); err != nil {
				return nil, err
			}
			keep(k.handles, "conversation:"+x.Handle, tk, func() { tk.Close() }) // closed with the rest
		}
		keep(k.handles, x.Handle, c.Conversation(tk), nil)
		return nil, nil
	}
	cv, err := lookup[*toolnexus.Conversation](k.handles, x.Conversation)
	if err != nil {
		return nil, err
	}
	switch r.Op {
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
