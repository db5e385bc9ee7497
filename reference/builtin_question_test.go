package toolnexus

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestQuestionSuspends(t *testing.T) {
	questions := []any{
		map[string]any{"question": "Which colour?", "header": "Colour", "options": []any{"red", "green", "blue"}},
		map[string]any{"question": "Why?", "options": []any{}},
		map[string]any{"question": "Both?", "multiple": true, "options": []any{"a"}},
	}
	res := runBuiltin(t, "question", map[string]any{"questions": questions}, nil)
	wantPrompt := "Which colour? (options: red, green, blue)\nWhy?\nBoth? (options: a)"
	req := PendingOf(res)
	if req == nil || !res.IsError || res.Output != wantPrompt {
		t.Fatalf("not a suspension: %+v", res)
	}
	if req.Kind != "question" || req.Prompt != wantPrompt || !strings.HasPrefix(req.ID, "pnd-") {
		t.Fatalf("request = %+v", req)
	}
	// The wire shape: pinned keys, the questions as given (header included) under data.
	wire := jsonish(t, res.Metadata["pending"]).(map[string]any)
	delete(wire, "id")
	mustEqual(t, "pending", wire, map[string]any{"kind": "question", "prompt": wantPrompt, "data": map[string]any{"questions": jsonish(t, questions)}})

	again := PendingOf(runBuiltin(t, "question", map[string]any{"questions": questions}, nil))
	if again.ID == req.ID {
		t.Fatal("two suspensions share an id")
	}
}

func TestQuestionWithAnswer(t *testing.T) {
	args := map[string]any{"questions": []any{map[string]any{"question": "Name?"}}}
	cases := []struct {
		name   string
		answer *Answer
		output string
	}{
		{"the answer's data as JSON", &Answer{ID: "x", Ok: true, Data: map[string]any{"answers": []any{"Ada"}, "n": json.Number("2")}}, `{"answers":["Ada"],"n":2}`},
		{"no data is an empty object", &Answer{ID: "x", Ok: true}, `{}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runBuiltin(t, "question", args, &ToolContext{Answer: c.answer})
			if res.IsError || res.Output != c.output || PendingOf(res) != nil {
				t.Fatalf("%+v", res)
			}
		})
	}
}

func TestQuestionRejectsBadQuestions(t *testing.T) {
	cases := map[string]any{
		`question: "questions" must be an array, got an object`:              map[string]any{},
		`question: "questions" is empty`:                                     []any{},
		`question: questions[0] must be an object, got a string`:             []any{"why"},
		`question: questions[0]: "question" is required`:                     []any{map[string]any{"header": "h"}},
		`question: questions[1]: "question" must be a string, got a number`:  []any{map[string]any{"question": "ok"}, map[string]any{"question": 1.0}},
		`question: questions[0]: "options" must be an array, got a string`:   []any{map[string]any{"question": "q", "options": "a,b"}},
		`question: questions[0]: options[1] must be a string, got a number`:  []any{map[string]any{"question": "q", "options": []any{"a", 2.0}}},
		`question: questions[0]: "multiple" must be a boolean, got a string`: []any{map[string]any{"question": "q", "multiple": "yes"}},
	}
	for want, questions := range cases {
		res := runBuiltin(t, "question", map[string]any{"questions": questions}, nil)
		if !res.IsError || res.Output != want || PendingOf(res) != nil {
			t.Errorf("%v: %+v", questions, res)
		}
	}
}

func TestPendingHelpers(t *testing.T) {
	res := Pending(Request{ID: "r1", Kind: "authorization", Prompt: "Log in", URL: "https://example.test/login"})
	if !res.IsError || res.Output != "Log in\nhttps://example.test/login" {
		t.Fatalf("%+v", res)
	}
	if r := PendingOf(res); r == nil || r.ID != "r1" {
		t.Fatalf("PendingOf = %+v", r)
	}
	if PendingOf(ToolResult{Output: "x"}) != nil || PendingOf(ToolResult{Metadata: map[string]any{"pending": "no"}}) != nil {
		t.Fatal("a plain result read as a suspension")
	}
	ptrReq := &Request{ID: "p"}
	if PendingOf(ToolResult{Metadata: map[string]any{"pending": ptrReq}}) != ptrReq {
		t.Fatal("a *Request was not read")
	}
	raw, _ := json.Marshal(Answer{ID: "a", Ok: false, Reason: "declined"})
	if string(raw) != `{"id":"a","ok":false,"reason":"declined"}` {
		t.Fatalf("answer wire = %s", raw)
	}
}
