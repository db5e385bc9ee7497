package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// smoke passes the reference's adapter and fails one that declares ops it cannot serve, each
// failure named and listed before the green lines; a port that is not present is said so,
// never a pass.
func TestSmokeJudgesEachAdapter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	root := scratchRoot(t)
	prepare := "#!/usr/bin/env bash\necho \"[\\\"bash\\\", \\\"$(cd \"$(dirname \"$0\")\" && pwd)/adapter\\\"]\"\n"
	addPortFolder(t, root, "liar", map[string]string{
		"port.json": `{"name": "liar", "language": "Bash", "order": 9, "implementations": [{"name": "liar"}], "toolchain": {}}`,
		"prepare":   prepare,
		// It says it has sanitize, a toolkit with a host tool and two slots, then answers sanitize
		// and tool.execute with made-up values and never calls the host tool back.
		"adapter": `#!/usr/bin/env bash
while IFS= read -r line; do
	id="$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")"
	case "$line" in
	*'"op":"hello"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"port\":\"liar\",\"library\":\"none\",\"version\":\"0\",\"runtime\":\"bash\",\"ops\":[\"sanitize\",\"toolkit.create\",\"tool.execute\"],\"slots\":[\"contract.tool\",\"llm.nosuch\"]},\"warnings\":[]}" ;;
	*'"op":"shutdown"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{},\"warnings\":[]}"; exit 0 ;;
	*'"op":"toolkit.create"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"tools\":[\"echo\"],\"status\":null},\"warnings\":[]}" ;;
	*'"op":"tool.execute"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"output\":\"made up\",\"isError\":false},\"warnings\":[]}" ;;
	*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"value\":\"a b\"},\"warnings\":[]}" ;;
	esac
done
`,
	})
	addPortFolder(t, root, "broken", map[string]string{
		"port.json": `{"name": "broken", "language": "Bash", "order": 10, "implementations": [{"name": "broken"}], "toolchain": {}}`,
		"prepare":   prepare,
		// It lists sanitize, toolkit.create and toolkit.describe; sanitize is fine, toolkit.create
		// answers ok with no result (a malformed line), and what needs its toolkit is skipped.
		"adapter": `#!/usr/bin/env bash
while IFS= read -r line; do
	id="$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")"
	case "$line" in
	*'"op":"hello"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"port\":\"broken\",\"library\":\"none\",\"version\":\"0\",\"runtime\":\"bash\",\"ops\":[\"sanitize\",\"toolkit.create\",\"toolkit.describe\"],\"slots\":[]},\"warnings\":[]}" ;;
	*'"op":"shutdown"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{},\"warnings\":[]}"; exit 0 ;;
	*'"op":"toolkit.create"'*) echo "{\"id\":$id,\"ok\":true,\"warnings\":[]}" ;;
	*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"value\":\"a_b\"},\"warnings\":[]}" ;;
	esac
done
`,
	})
	t.Setenv("TOOLNEXUS_GO", "")
	t.Setenv("TOOLNEXUS_ROOT", "")
	var code int
	out := captured(t, &os.Stdout, func() {
		captured(t, &os.Stderr, func() {
			code = cmdSmoke([]string{"--root", root, "--cache", filepath.Join(harnessRoot(t), ".cache"), "--ports", "reference,liar,broken"})
		})
	})
	if code != 1 {
		t.Errorf("exit %d, want 1 (the liar and the broken adapter fail)\n%s", code, out)
	}
	if !regexp.MustCompile(`(?m)^reference +\d+ ok, 0 failed, 0 unsupported, 0 skipped$`).MatchString(out) {
		t.Errorf("the reference did not pass every check:\n%s", out)
	}
	for _, want := range []string{
		"FAIL        hello lists 3 ops and 2 slots, all in the protocol (unknown: [] [llm.nosuch])",
		"FAIL        op sanitize: value is a b, want a_b",
		"unsupported op client.run: hello does not list client.run",
		"FAIL        op tool.execute: output is made up, want pong",
		"FAIL        slot contract.tool: return: never called back; raise: never called back",
		"ok          op toolkit.create\n",
		"FAIL        op toolkit.create: ",
		"skipped     op toolkit.describe: not smoked: it needs toolkit.create, and it failed",
		"skipped     op sanitize: the adapter broke on toolkit.create (see above)",
		"skipped     unknown handle, error relay and shutdown: not checked, the adapter broke on toolkit.create",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// Red lines come first in each adapter's block, where the eye lands.
	for _, port := range []string{"liar", "broken"} {
		i := strings.Index(out, "\n"+port+": ")
		if i < 0 {
			t.Fatalf("no block for %s:\n%s", port, out)
		}
		body := out[i:]
		if firstOK, firstFail := strings.Index(body, "  ok "), strings.Index(body, "  FAIL "); firstFail < 0 || firstOK < firstFail {
			t.Errorf("%s: a red line is not listed before the green ones:\n%s", port, body)
		}
	}
}
