// Package common holds what several areas' steps use: the attempt's view (view.go), the
// judgements on a call's outcome every area makes (outcome.go), the toolkits a scenario
// builds (toolkits.go), and small helpers on decoded JSON, message text, step-text lists,
// fake-written files and edge values (json.go, messages.go, lists.go, files.go, codepoints.go).
package common
