package shell

import (
	"bytes"
	"testing"
)

// TestCountByteAgreesWithBytesCount counts every byte value in inputs of
// every length around the 32-byte stride, at every alignment, with runs of
// the byte, bytes next to it (b^1, b+0x80) and none at all.
func TestCountByteAgreesWithBytesCount(t *testing.T) {
	for _, b := range []byte{'\n', 0, 0x7f, 0x80, 0xff, 'a'} {
		var p []byte
		for i := range 300 {
			switch i % 7 {
			case 0, 3:
				p = append(p, b)
			case 1:
				p = append(p, b^1)
			case 2:
				p = append(p, b+0x80)
			default:
				p = append(p, byte(i))
			}
		}
		for start := range 40 {
			for end := start; end <= len(p); end += 1 + end%5 {
				if got, want := countByte(p[start:end], b), bytes.Count(p[start:end], []byte{b}); got != want {
					t.Fatalf("byte %#x in p[%d:%d]: got %d, want %d", b, start, end, got, want)
				}
			}
		}
	}
	if n := countByte(nil, '\n'); n != 0 {
		t.Errorf("empty input: got %d", n)
	}
}
