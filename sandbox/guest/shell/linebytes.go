package shell

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
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

// countByte is bytes.Count(p, []byte{b}) done eight bytes at a time:
// bytes.Count has no wasm assembly and loops over bytes (wc -l of 8 MB
// took 25 ms in the guest, this 3 ms). Each word is XORed with b in every
// byte, so bytes equal to b become zero; a zero byte is one whose low
// seven bits plus 0x7f do not carry into, and whose own, top bit is
// clear. Four words' flags are packed into one for a single popcount.
func countByte(p []byte, b byte) int {
	const lo, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	pat := uint64(b) * 0x0101010101010101
	n := 0
	for len(p) >= 32 {
		x0 := binary.LittleEndian.Uint64(p[0:8]) ^ pat
		x1 := binary.LittleEndian.Uint64(p[8:16]) ^ pat
		x2 := binary.LittleEndian.Uint64(p[16:24]) ^ pat
		x3 := binary.LittleEndian.Uint64(p[24:32]) ^ pat
		z0 := ^((x0&lo + lo) | x0) & hi
		z1 := ^((x1&lo + lo) | x1) & hi
		z2 := ^((x2&lo + lo) | x2) & hi
		z3 := ^((x3&lo + lo) | x3) & hi
		n += bits.OnesCount64(z0>>7 | z1>>6 | z2>>5 | z3>>4)
		p = p[32:]
	}
	for _, c := range p {
		if c == b {
			n++
		}
	}
	return n
}
