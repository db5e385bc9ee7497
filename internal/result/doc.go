// Package result is the typed model every stage after a run shares: a scenario's status and
// outcome, its verdict, an implementation's result, the expectations it was judged against
// and the versions a run was judged by. It imports only the standard library, so the
// reports, the history and the merge of results.json documents link neither godog nor the
// MCP SDK (internal/suite runs the scenarios and judges them into these types).
package result
