package toolnexus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

func questionTool() Tool {
	return builtinTool("question",
		"Ask the user one or more questions and wait for the answer. The run suspends until the host resolves the request.",
		objectSchema(map[string]any{
			"questions": map[string]any{
				"type":        "array",
				"description": "The questions, in the order to ask them",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"question": prop("string", "The question text"),
						"header":   prop("string", "A short label for the question"),
						"options": map[string]any{"type": "array", "items": map[string]any{"type": "string"},
							"description": "Answers to choose from"},
						"multiple": prop("boolean", "Whether several options may be chosen"),
					},
					"required": []string{"question"},
				},
			},
		}, "questions"),
		runQuestion)
}

// runQuestion suspends with a kind "question" Request (§10) on the first call; once the
// host has resolved it, the loop runs the tool again with the answer, and the answer's
// data (an empty object when it has none) is what the model gets.
func runQuestion(args map[string]any, tc *ToolContext) ToolResult {
	questions, ok := anySlice(args["questions"])
	if !ok {
		return failf("question: \"questions\" must be an array, got %s", argKind(args["questions"]))
	}
	prompt, err := renderQuestions(questions)
	if err != nil {
		return failf("question: %v", err)
	}
	if tc != nil && tc.Answer != nil {
		data := tc.Answer.Data
		if data == nil {
			data = map[string]any{}
		}
		// Compact, as JSON.stringify writes it (SPEC.md §10): no HTML escaping.
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(data); err != nil {
			return failf("question: the answer is not JSON: %v", err)
		}
		return ToolResult{Output: strings.TrimSuffix(out.String(), "\n")}
	}
	return Pending(Request{Kind: "question", Prompt: prompt, Data: map[string]any{"questions": questions}})
}

// renderQuestions is the Request prompt, pinned byte for byte across ports (§4A): each
// question's text in order, with " (options: a, b)" when it has options, one per line.
// The header is not shown; it stays in data.questions.
func renderQuestions(questions []any) (string, error) {
	if len(questions) == 0 {
		return "", fmt.Errorf("\"questions\" is empty")
	}
	lines := make([]string, 0, len(questions))
	for i, q := range questions {
		item, ok := q.(map[string]any)
		if !ok {
			return "", fmt.Errorf("questions[%d] must be an object, got %s", i, argKind(q))
		}
		text, err := strArg(item, "question", true)
		if err != nil {
			return "", fmt.Errorf("questions[%d]: %v", i, err)
		}
		if _, err := strArg(item, "header", false); err != nil {
			return "", fmt.Errorf("questions[%d]: %v", i, err)
		}
		if _, err := boolArg(item, "multiple"); err != nil {
			return "", fmt.Errorf("questions[%d]: %v", i, err)
		}
		var options []string
		if raw, present := item["options"]; present && raw != nil {
			list, ok := raw.([]any)
			if !ok {
				return "", fmt.Errorf("questions[%d]: \"options\" must be an array, got %s", i, argKind(raw))
			}
			for j, o := range list {
				s, ok := o.(string)
				if !ok {
					return "", fmt.Errorf("questions[%d]: options[%d] must be a string, got %s", i, j, argKind(o))
				}
				options = append(options, s)
			}
		}
		if len(options) > 0 {
			text += " (options: " + strings.Join(options, ", ") + ")"
		}
		lines = append(lines, text)
	}
	return strings.Join(lines, "\n"), nil
}
