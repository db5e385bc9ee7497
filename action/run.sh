#!/usr/bin/env bash
# The action's one step: install the CLI, run it on the tree, and hand the exit code on as an
# output (the job summary is written by the CLI itself, from GITHUB_STEP_SUMMARY).
set -uo pipefail
bin="$RUNNER_TEMP/conformance-bin"
mkdir -p "$bin"
# No version named: the CLI of the ref the action is used at, so pinning the action pins the CLI;
# an action used from a path (uses: ./) has no ref and builds its own copy.
if [ -z "${CONFORMANCE_VERSION:-}" ]; then
	CONFORMANCE_VERSION="${CONFORMANCE_ACTION_REF:-}"
	[ -n "$CONFORMANCE_VERSION" ] || CONFORMANCE_VERSION=local
fi
if [ "$CONFORMANCE_VERSION" = local ]; then
	# -p keeps the stdio fake no older than the CLI, which it must be to be used.
	(cd "$GITHUB_ACTION_PATH" && make -s build && cp -p bin/conformance bin/conformance-fake-mcp-stdio "$bin/") || {
		echo "::error::could not build the conformance CLI from $GITHUB_ACTION_PATH"
		echo "exit-code=2" >>"$GITHUB_OUTPUT"
		exit 0
	}
else
	GOBIN="$bin" go install "github.com/muthuishere/toolnexus-conformance/cmd/conformance@$CONFORMANCE_VERSION" || {
		echo "::error::could not install conformance@$CONFORMANCE_VERSION"
		echo "exit-code=2" >>"$GITHUB_OUTPUT"
		exit 0
	}
	# The stdio fake on its own starts far faster than the CLI; a version without it still
	# works (the CLI serves the fake itself).
	GOBIN="$bin" go install "github.com/muthuishere/toolnexus-conformance/cmd/conformance-fake-mcp-stdio@$CONFORMANCE_VERSION" 2>/dev/null ||
		echo "conformance-fake-mcp-stdio@$CONFORMANCE_VERSION not installed: the CLI serves the stdio fake itself"
fi
"$bin/conformance" version

args=(run --toolnexus "$CONFORMANCE_TREE" --report-dir "$CONFORMANCE_REPORTS")
[ -n "$CONFORMANCE_PORTS" ] && args+=(--ports "$CONFORMANCE_PORTS")
[ -n "$CONFORMANCE_TAGS" ] && args+=(--tags "$CONFORMANCE_TAGS")
if [ -n "$CONFORMANCE_ARGS" ]; then
	read -r -a extra <<<"$CONFORMANCE_ARGS"
	args+=("${extra[@]}")
fi
mkdir -p "$CONFORMANCE_REPORTS"
code=0
"$bin/conformance" "${args[@]}" || code=$?
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
exit 0
