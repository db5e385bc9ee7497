package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// smoke passes the reference's adapter and fails one that declares ops it cannot serve, each
// failure named; a port that is not present is said so, never a pass.
func TestSmokeJudgesEachAdapter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	root := scratchRoot(t)
	addPortFolder(t, root, "liar", map[string]string{
		"port.json": `{"name": "liar", "language": "Bash", "order": 9, "implementations": [{"name": "liar"}], "toolchain": {}}`,
		"prepare":   "#!/usr/bin/env bash\necho \"[\\\"bash\\\", \\\"$(cd \"$(dirname \"$0\")\" && pwd)/adapter\\\"]\"\n",
		// It says it has sanitize and a slot, then answers sanitize with the wrong value.
		"adapter": `#!/usr/bin/env bash
while IFS= read -r line; do
	id="$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")"
	case "$line" in
	*'"op":"hello"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"port\":\"liar\",\"library\":\"none\",\"version\":\"0\",\"runtime\":\"bash\",\"ops\":[\"sanitize\"],\"slots\":[\"contract.tool\",\"llm.nosuch\"]},\"warnings\":[]}" ;;
	*'"op":"shutdown"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{},\"warnings\":[]}"; exit 0 ;;
	*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"value\":\"a b\"},\"warnings\":[]}" ;;
	esac
done
`,
	})
	t.Setenv("TOOLNEXUS_GO", "")
	t.Setenv("TOOLNEXUS_ROOT", "")
	var code int
	out := captured(t, &os.Stdout, func() {
		captured(t, &os.Stderr, func() {
			code = cmdSmoke([]string{"--root", root, "--cache", filepath.Join(harnessRoot(t), ".cache"), "--ports", "reference,liar"})
		})
	})
	if code != 1 {
		t.Errorf("exit %d, want 1 (the liar fails)\n%s", code, out)
	}
	if !regexp.MustCompile(`(?m)^reference +\d+ ok, 0 failed$`).MatchString(out) {
		t.Errorf("the reference did not pass every check:\n%s", out)
	}
	for _, want := range []string{"FAIL hello lists 1 ops and 2 slots, all in the protocol (unknown: [] [llm.nosuch])",
		"FAIL sanitize maps a space to _ (got a b)", "not declared by this adapter"} {
		if !strings.Contains(out, want) {
			t.Errorf("the liar's report lacks %q:\n%s", want, out)
		}
	}
}
