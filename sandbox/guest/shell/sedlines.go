package shell

import "bufio"

// sedLines reads sed's input a line at a time with one line of
// look-ahead.
type sedLines struct {
	br        *bufio.Reader
	sep       byte
	n         int    // lines read so far
	peek      string // the next line, when has
	has, done bool
	peekNoEOL bool // the next line lacks its separator
	noEOL     bool // the line last read lacks its separator
}

func (s *sedLines) fill() {
	if s.has || s.done {
		return
	}
	line, err := s.br.ReadString(s.sep)
	if line == "" && err != nil {
		s.done = true
		return
	}
	s.peekNoEOL = line[len(line)-1] != s.sep
	if !s.peekNoEOL {
		line = line[:len(line)-1]
	}
	s.peek, s.has = line, true
}

// more reports whether another line follows.
func (s *sedLines) more() bool {
	s.fill()
	return s.has
}

// next returns the next line (more must have said there is one).
func (s *sedLines) next() string {
	s.fill()
	s.has, s.noEOL = false, s.peekNoEOL
	s.n++
	return s.peek
}
