package httpfake

import (
	"net"
	"sync"
	"sync/atomic"
)

// countingListener counts the TCP connections it accepts and how many of them
// are still open, so scenarios can check that a client connected (or did not)
// and that it closed what it opened.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
	open     atomic.Int64
}

// Accept wraps every accepted connection so that its Close is counted.
func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.accepted.Add(1)
	l.open.Add(1)
	return &countedConn{Conn: c, l: l}, nil
}

// countedConn decrements the open count exactly once, however often the
// server and Close both close it.
type countedConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

// Close closes the connection and records that it is no longer open.
func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.open.Add(-1) })
	return err
}
