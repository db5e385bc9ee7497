package adapter

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLineBytes is the longest protocol line the runner reads (SPEC.md §3). A longer line is
// a protocol error: the runner stops reading at this size instead of buffering without end.
const MaxLineBytes = 8 << 20

var errLineTooLong = errors.New("line too long")

// item is what the stdout reader hands to a call: one line, or why there are no more.
type item struct {
	line []byte
	err  error // io.EOF, errLineTooLong or a read error; the reader stops after it
}

// readLine reads one line without its newline, holding at most max bytes. A last line
// without a newline still counts as a line; io.EOF comes on the next read.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 || (len(line)+len(chunk) > max && !bytes.HasSuffix(chunk, []byte("\n"))) {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(line[:len(line)-1], []byte("\r")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// readLines feeds stdout's lines to calls until stdout ends or the runner stops listening;
// it never blocks on a full channel once quit is closed.
func (p *Process) readLines(r io.Reader) {
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		line, err := readLine(br, MaxLineBytes)
		it := item{line: line, err: err}
		select {
		case p.lines <- it:
		case <-p.quit:
			return
		}
		if err != nil {
			return
		}
	}
}
