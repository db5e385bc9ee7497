package faults

import "net"

// ClosedPort returns "http://127.0.0.1:<port>/mcp" for a port that was bound
// and then closed, so nothing listens there and a connect is refused at once.
// (Another process could in principle take the port afterwards; ephemeral
// ports are handed out round-robin, so not within a test's lifetime.)
func ClosedPort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		return "", err
	}
	return "http://" + addr + "/mcp", nil
}
