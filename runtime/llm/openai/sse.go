package openai

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// maxEventBytes bounds one server-sent event, so that a server streaming
// an endless line cannot exhaust memory. Real chunks are a few hundred
// bytes; a whole tool call's arguments in one chunk stay far below this.
const maxEventBytes = 16 << 20

// errEventTooLarge is returned for an event over maxEventBytes.
var errEventTooLarge = fmt.Errorf("a stream event is larger than %d bytes", maxEventBytes)

// sseReader reads the data of server-sent events (the subset chat
// completions use): "data:" lines, joined by newlines when an event has
// several, end an event at a blank line. Comments (": keep-alive",
// ": OPENROUTER PROCESSING"), other fields (event:, id:, retry:) and events
// with empty data are skipped. An event cut off by the end of the body
// (its line never finished) is dropped, as the SSE specification says.
type sseReader struct {
	r    *bufio.Reader
	data []byte // data of the event being read
	has  bool   // the event being read had a data field
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 4<<10)}
}

// next returns the data of the next non-empty event. The slice is valid
// until the following call. At the end of the body it returns io.EOF; a
// read failure is returned as is.
func (s *sseReader) next() ([]byte, error) {
	s.data, s.has = s.data[:0], false
	for {
		line, err := s.line()
		if err != nil {
			if errors.Is(err, io.EOF) && s.has && len(s.data) > 0 && line == nil {
				return s.data, nil // a complete last event without its blank line
			}
			return nil, err
		}
		if len(line) == 0 {
			if s.has && len(s.data) > 0 {
				return s.data, nil
			}
			s.data, s.has = s.data[:0], false
			continue
		}
		value, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // a comment or a field chat completions do not use
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if len(s.data)+len(value)+1 > maxEventBytes {
			return nil, errEventTooLarge
		}
		if s.has {
			s.data = append(s.data, '\n')
		}
		s.data, s.has = append(s.data, value...), true
	}
}

// line reads one line without its line ending (LF, CRLF or CR-less). At
// the end of the body it returns io.EOF, with line nil when the body ended
// right after a line ending and the unfinished text otherwise (which next
// drops).
func (s *sseReader) line() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxEventBytes {
			line, err = s.r.ReadSlice('\n')
			long = append(long, line...)
		}
		if len(long) > maxEventBytes {
			return nil, errEventTooLarge
		}
		line = long
	}
	if err != nil {
		if len(line) == 0 {
			line = nil
		}
		return line, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}
