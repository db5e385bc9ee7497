#!/usr/bin/env bash
# The action's one step: get the CLI, run it on the tree, and hand the exit code on as an
# output (the job summary is written by the CLI itself, from GITHUB_STEP_SUMMARY).
set -uo pipefail
bin="$RUNNER_TEMP/conformance-bin"
mkdir -p "$bin"
fail() {
	echo "::error::$1"
	echo "exit-code=2" >>"$GITHUB_OUTPUT"
	exit 0
}
# No version named (or "local"): build the copy of the harness the action was fetched as, so the
# CLI is the one of the ref the action is used at, a tag, a branch or a commit alike (go install
# knows only what the module proxy serves). A named version is installed as asked, or the step
# fails: another CLI than the one asked for is never run in its place.
version="${CONFORMANCE_VERSION:-local}"
if [ "$version" = local ]; then
	# A fetched action carries no .git, so the ref it is used at says what was built: a commit
	# (its short form) or a branch; the release's own tag adds nothing to the version.
	ref="${CONFORMANCE_ACTION_REF:-}" commit=""
	if [ -n "$ref" ] && [ ! -e "$GITHUB_ACTION_PATH/.git" ] && [ "$ref" != "$(cat "$GITHUB_ACTION_PATH/VERSION" 2>/dev/null)" ]; then
		commit="$ref"
		[[ "$ref" =~ ^[0-9a-f]{40}$ ]] && commit="${ref:0:7}"
		commit="${commit//[^A-Za-z0-9._-]/_}"
	fi
	# -p keeps the stdio fake no older than the CLI, which it must be to be used.
	(cd "$GITHUB_ACTION_PATH" && make -s build ${commit:+COMMIT="$commit"} && cp -p bin/conformance bin/conformance-fake-mcp-stdio "$bin/") ||
		fail "could not build the conformance CLI from $GITHUB_ACTION_PATH"
else
	GOBIN="$bin" go install "github.com/muthuishere/toolnexus-conformance/cmd/conformance@$version" ||
		fail "could not install conformance@$version: is it a tag of github.com/muthuishere/toolnexus-conformance (see its CHANGELOG.md)? Leave version unset to build the action's own copy"
	# The stdio fake on its own starts far faster than the CLI; a version without it still
	# works (the CLI serves the fake itself).
	GOBIN="$bin" go install "github.com/muthuishere/toolnexus-conformance/cmd/conformance-fake-mcp-stdio@$version" 2>/dev/null ||
		echo "conformance-fake-mcp-stdio@$version not installed: the CLI serves the stdio fake itself"
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
