# The two commands a newcomer needs: `make conformance` and `make test` (see README.md).
GO       ?= go
BIN      := bin/conformance
REPORTS  ?= reports
RUNS     ?= 3
PORTS    ?=
ACTIONLINT := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

.PHONY: all bundle build conformance report test vet unit suite consumers fuzz coverage lint-workflows bench mutants clean readme-table

all: test

# nested.tar.gz carries runners/go and reference/ (modules of their own) inside the binary.
bundle:
	$(GO) generate .

# The commit a build prints beside the release VERSION declares (conformance version:
# v0.3.0+0e2adb4, -dirty for a modified tree); none outside a git clone unless COMMIT is given.
# Read once, before the build regenerates nested.tar.gz: the tree as it was checked out.
ifeq ($(origin COMMIT),undefined)
COMMIT := $(shell git describe --always --dirty --abbrev=7 --exclude='*' 2>/dev/null)
endif

# The stdio fake on its own is built second, beside the CLI, with the same flags: conformance
# uses it only when it is no older than itself (see cmd/conformance/fakestdio.go).
build: bundle
	$(GO) build -ldflags "-X main.buildCommit=$(COMMIT)" -o $(BIN) ./cmd/conformance
	$(GO) build -ldflags "-X main.buildCommit=$(COMMIT)" -o $(BIN)-fake-mcp-stdio ./cmd/conformance-fake-mcp-stdio

# Every implementation that is present (the reference always); absent ones say why.
# PORTS=reference,go,python runs those and makes them required (not present = failure).
conformance: build
	./$(BIN) run $(if $(PORTS),--ports $(PORTS)) --report-dir $(REPORTS)

# The same run, then where its reports are: report.html (open it), report.md, results.json,
# junit-<port>.xml, cucumber-<port>.json. Exits as the run did, after printing the paths.
report: build
	@status=0; ./$(BIN) run $(if $(PORTS),--ports $(PORTS)) --report-dir $(REPORTS) || status=$$?; \
	echo; echo "reports:"; \
	for f in $(REPORTS)/report.html $(REPORTS)/report.md $(REPORTS)/results.json $(REPORTS)/junit-*.xml $(REPORTS)/cucumber-*.json; do \
		[ -e "$$f" ] && echo "  $$f"; \
	done; \
	exit $$status

test: vet unit fuzz coverage lint-workflows suite consumers

vet:
	$(GO) vet ./...
	cd reference && $(GO) vet ./...
	cd runners/go && $(GO) vet ./... && $(GO) vet -tags native_result ./...

# Includes TestInstalledOutsideClone: go install into an empty GOBIN, run from outside the clone.
# go test -json through tools/testprogress, so minutes of -race are not silent: a line as each
# package starts, the packages still running every 30 s, each failing test's output, and go
# test's own ok/FAIL line per package; it exits as go test did.
TESTPROGRESS := $(CURDIR)/bin/testprogress
unit: bundle
	$(GO) build -o $(TESTPROGRESS) ./tools/testprogress
	GO=$(GO) $(TESTPROGRESS) -race -timeout 5m ./...
	cd reference && GO=$(GO) $(TESTPROGRESS) -race -timeout 5m ./...
	cd runners/go && GO=$(GO) $(TESTPROGRESS) -race -timeout 5m ./...

# A count, not a duration: a timed fuzz run can end in the engine's own "context deadline
# exceeded" when a worker is mid-input at the deadline (seen once on a loaded machine).
fuzz:
	cd reference && $(GO) test -run '^$$' -fuzz FuzzParseMcpConfig -fuzztime 30000x .
	cd reference && $(GO) test -run '^$$' -fuzz FuzzJSStringifyRaw -fuzztime 20000x .

# Every catalogue ID must have a scenario: this prints the ones that do not, and fails.
coverage: build
	./$(BIN) list --uncovered

# The whole suite on the reference.
suite: build
	./$(BIN) run --ports reference --report-dir $(REPORTS)/reference

# The suite's reports read by what CI systems use: junitparser (PyPI), cucumber-html-reporter
# (npm), python3 -m json.tool for --format json; installed into .cache on first use.
consumers: suite
	tools/check-consumers $(REPORTS)/reference ./$(BIN)

# Proves the suite can fail: every mutant of the reference must be caught.
mutants: build
	./$(BIN) mutants

# actionlint runs shellcheck on every run: block when shellcheck is installed (.ci/run installs
# it); the action's and the tools' scripts are checked directly.
lint-workflows:
	$(GO) run $(ACTIONLINT) .github/workflows/*.yml
	@if command -v shellcheck >/dev/null; then shellcheck action/run.sh tools/check-consumers .ci/run; \
	else echo "shellcheck not installed: skipping the script check (install it: apt-get install shellcheck)"; fi

bench: build
	./$(BIN) bench --runs $(RUNS) $(if $(PORTS),--ports $(PORTS))

clean:
	rm -rf bin $(REPORTS) .cache

# Re-run every present port and splice the result table into README.md.
readme-table: build
	-./$(BIN) run --quiet --report-dir $(REPORTS) > /dev/null
	awk '/^\| ID/{p=1} p&&/^$$/{exit} p' $(REPORTS)/report.md > $(REPORTS)/table.md
	awk -v t=$(REPORTS)/table.md '/<!-- results:start -->/{print; while((getline l < t)>0) print l; skip=1; next} /<!-- results:end -->/{skip=0} !skip' README.md > README.md.new && mv README.md.new README.md
