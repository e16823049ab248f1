package shell

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"io"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// newGzipWriter returns a gzip writer at level whose header names name
// (when it is plain ASCII). The deflate work is the host's, a segment of
// up to proto.DeflateChunk bytes at a time (proto.DeflateFunc), and so is
// the CRC (proto.DigestCRC32): in the wasm guest compress/flate took four
// times GNU gzip's time. A name that is not plain ASCII gets Go's own
// gzip.Writer, which checks it.
func newGzipWriter(w io.Writer, level int, name string) (io.WriteCloser, error) {
	if !plainASCII(name) {
		zw, err := gzip.NewWriterLevel(w, level)
		if err == nil {
			zw.Name = name
		}
		return zw, err
	}
	if level < gzip.HuffmanOnly || level > gzip.BestCompression {
		return nil, gzip.ErrHeader
	}
	return &gzipWriter{w: w, level: level, name: name, crc: crc32.NewIEEE(), buf: make([]byte, 0, proto.DeflateChunk)}, nil
}

func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 || s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// gzipWriter writes one gzip member: a header as gzip.Writer writes it,
// deflate segments that each end with a sync flush, a final empty block
// and the CRC-32 and size trailer.
type gzipWriter struct {
	w       io.Writer
	level   int
	name    string
	crc     hash.Hash32
	size    uint32
	buf     []byte
	out     []byte
	state   []byte
	started bool
	err     error
}

func (z *gzipWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && z.err == nil {
		k := min(len(p), cap(z.buf)-len(z.buf))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
		if len(z.buf) == cap(z.buf) {
			z.flushSegment()
		}
	}
	if z.err != nil {
		return 0, z.err
	}
	return n, nil
}

// Close writes what is buffered, the final block and the trailer; it does
// not close the underlying writer.
func (z *gzipWriter) Close() error {
	z.flushSegment()
	z.header()
	var t [10]byte
	t[0], t[1] = 0x03, 0x00 // a final, empty, fixed-Huffman block
	binary.LittleEndian.PutUint32(t[2:], z.crc.Sum32())
	binary.LittleEndian.PutUint32(t[6:], z.size)
	z.put(t[:])
	return z.err
}

// header writes the member's header once, as gzip.Writer would: no
// modification time, XFL for the best and fastest levels, OS unknown.
func (z *gzipWriter) header() {
	if z.started {
		return
	}
	z.started = true
	h := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}
	switch z.level {
	case gzip.BestCompression:
		h[8] = 2
	case gzip.BestSpeed:
		h[8] = 4
	}
	if z.name != "" {
		h[3] = 0x08
		h = append(append(h, z.name...), 0)
	}
	z.put(h)
}

// flushSegment compresses the buffer into one segment, through the host
// when it answers and with compress/flate here when it does not.
func (z *gzipWriter) flushSegment() {
	z.header()
	if len(z.buf) == 0 || z.err != nil {
		return
	}
	z.checksum(z.buf)
	z.size += uint32(len(z.buf))
	if z.out == nil {
		z.out = make([]byte, proto.DeflateChunk+proto.DeflateChunk/8+64)
	}
	if n := hostDeflate(z.level, z.buf, z.out); n >= 0 {
		z.put(z.out[:n])
	} else {
		var b bytes.Buffer
		fw, _ := flate.NewWriter(&b, z.level)
		fw.Write(z.buf)
		fw.Flush()
		z.put(b.Bytes())
	}
	z.buf = z.buf[:0]
}

// checksum adds p to the CRC through the host's digest when it can.
func (z *gzipWriter) checksum(p []byte) {
	if z.state == nil {
		z.state = make([]byte, proto.DigestState)
	}
	hashChunk(z.crc, proto.DigestCRC32, p, z.state)
}

func (z *gzipWriter) put(b []byte) {
	if z.err == nil {
		_, z.err = z.w.Write(b)
	}
}
