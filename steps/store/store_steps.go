package store

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/cucumber/godog"
)

func registerStoreSteps(sc *kernel.Steps) {
	sc.Step(`^a host-supplied conversation store$`, (*World).hostStore)
	sc.Step(`^the store accessor returns the host-supplied store$`, (*World).storeIdentity)
	sc.Step(`^the store accessor reads conversation "([^"]*)"$`, (*World).storeGet)
	sc.Step(`^the store accessor saves conversation "([^"]*)":$`, (*World).storeSave)
	sc.Step(`^the conversation is empty$`, (*World).conversationEmpty)
	sc.Step(`^the conversation does not contain "([^"]*)"$`, (*World).conversationLacks)
	sc.Step(`^the conversation carries, in order, the messages (.+)$`, (*World).conversationCarries)
}

func (w *World) storeIdentity() error {
	if err := client.EnsureClient(w.A); err != nil {
		return err
	}
	r, err := w.Must("store.identity", map[string]any{"client": w.client().Client["handle"]})
	if err != nil {
		return err
	}
	if same, _ := r["same"].(bool); !same {
		return fmt.Errorf("the store accessor does not return the instance passed in the options")
	}
	return nil
}

func (w *World) storeGet(id string) error {
	if err := client.EnsureClient(w.A); err != nil {
		return err
	}
	r, err := w.Must("store.get", map[string]any{"client": w.client().Client["handle"], "id": id})
	if err != nil {
		return err
	}
	w.store().stored = r
	return nil
}

func (w *World) storeSave(id string, doc *godog.DocString) error {
	if err := client.EnsureClient(w.A); err != nil {
		return err
	}
	var msgs []any
	if err := common.StepJSON(doc.Content, &msgs); err != nil {
		return fmt.Errorf("harness: messages are not a JSON list: %w", err)
	}
	_, err := w.Must("store.save", map[string]any{"client": w.client().Client["handle"], "id": id, "messages": msgs})
	return err
}

func (w *World) conversationEmpty() error {
	if w.store().stored == nil {
		return fmt.Errorf("harness: no conversation was read")
	}
	if msgs, _ := w.store().stored["messages"].([]any); len(msgs) != 0 {
		return fmt.Errorf("the conversation holds %d messages; want none", len(msgs))
	}
	return nil
}

func (w *World) conversationCarries(list string) error {
	if w.store().stored == nil {
		return fmt.Errorf("harness: no conversation was read")
	}
	msgs, ok := w.store().stored["messages"].([]any)
	if !ok {
		return fmt.Errorf("the store accessor returned no conversation")
	}
	var texts []string
	for _, m := range msgs {
		texts = append(texts, common.MessageText(m))
	}
	return common.InOrder(texts, common.QuotedList(list), "the stored conversation")
}

// conversationLacks: the stored transcript must hold the turns but not a transform's edit.
func (w *World) conversationLacks(text string) error {
	msgs, _ := w.store().stored["messages"].([]any)
	if len(msgs) == 0 {
		return fmt.Errorf("the store holds no messages for the conversation (%s)", common.JSONString(w.store().stored))
	}
	if js := common.JSONString(msgs); strings.Contains(js, text) {
		return fmt.Errorf("the stored conversation carries %q, an edit the body transform made to one request: %s", text, common.ClipString(js, 600))
	}
	return nil
}

// hostStore hands the client a store the host made (store: "host"), for the accessor to
// return as is (G4).
func (w *World) hostStore() error { return kernel.SetOption(w.A, "client.create", "store", "host") }
