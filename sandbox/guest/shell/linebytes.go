package shell

import (
	"bufio"
	"errors"
	"io"
)

// eachLineBytes calls f with every line of r without its newline, as
// eachLine does, but with a slice of the reader's buffer that is valid
// only until f returns: no string is made per line (in the wasm guest an
// allocation per line was most of uniq's and awk's time). A line longer
// than the buffer is gathered into one slice.
func eachLineBytes(r io.Reader, f func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, line...)
			continue
		}
		if len(long) > 0 {
			line = append(long, line...)
			long = long[:0]
		}
		if len(line) > 0 {
			if line[len(line)-1] == '\n' {
				line = line[:len(line)-1]
			}
			if ferr := f(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
