#!/usr/bin/env bash
# The action's one step: install the CLI, run it on the tree, and hand the exit code on as an
# output (the job summary is written by the CLI itself, from GITHUB_STEP_SUMMARY).
set -uo pipefail
bin="$RUNNER_TEMP/conformance-bin"
mkdir -p "$bin"
if [ "$CONFORMANCE_VERSION" = local ]; then
	(cd "$GITHUB_ACTION_PATH" && make -s build && cp bin/conformance "$bin/") || {
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
