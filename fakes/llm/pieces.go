package llm

// pieces splits s into at least two parts (the second may be empty), so every
// client must reassemble deltas rather than read one whole value.
func pieces(s string) []string {
	r := []rune(s)
	if len(r) < 2 {
		return []string{s, ""}
	}
	size := max(1, len(r)/3)
	var out []string
	for len(r) > 0 {
		n := min(size, len(r))
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}
