package adapter

// HelloNames is the list of names under key in an adapter's hello result ("ops",
// "slots"). Anything that is not a string is dropped: every answer, hello included, is
// already checked against the protocol schema, so a stray value is not judged again here.
func HelloNames(hello map[string]any, key string) []string {
	list, _ := hello[key].([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
