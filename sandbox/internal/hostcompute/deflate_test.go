package hostcompute

import (
	"bytes"
	"compress/flate"
	"io"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func TestDeflateSegmentsConcatenateIntoOneStream(t *testing.T) {
	mem := memory(t)
	parts := [][]byte{bytes.Repeat([]byte("first segment "), 900), bytes.Repeat([]byte("second "), 1200)}
	var stream []byte
	for _, p := range parts {
		mem.Write(0, p)
		n := DeflateSegment(mem, flate.DefaultCompression, 0, uint32(len(p)), 32768, 32768)
		if n <= 0 {
			t.Fatalf("DeflateSegment = %d", n)
		}
		seg, _ := mem.Read(32768, uint32(n))
		stream = append(stream, seg...)
	}
	stream = append(stream, 0x03, 0x00) // the final block the guest writes
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
	if err != nil || !bytes.Equal(got, bytes.Join(parts, nil)) {
		t.Fatalf("read back %d bytes, err %v", len(got), err)
	}
}

func TestADeflateSegmentRefusesWhatItCannotDo(t *testing.T) {
	mem := memory(t)
	for _, tc := range []struct {
		name                   string
		level                  int32
		in, inLen, out, outCap uint32
	}{
		{"a level past 9", 10, 0, 100, 1024, 1024},
		{"a level below HuffmanOnly", -3, 0, 100, 1024, 1024},
		{"input over the chunk cap", 6, 0, proto.DeflateChunk + 1, 1024, 1024},
		{"input outside memory", 6, 65000, 1000, 1024, 1024},
		{"an answer buffer outside memory", 6, 0, 100, 65530, 1024},
		{"an answer buffer too small", 6, 0, 100, 1024, 2},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			if n := DeflateSegment(mem, tc.level, tc.in, tc.inLen, tc.out, tc.outCap); n != -1 {
				t.Fatalf("DeflateSegment = %d, want -1", n)
			}
		})
	}
}
