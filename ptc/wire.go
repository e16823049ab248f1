package ptc

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The host and its engine process talk over the engine's stdin and stdout
// in frames: a little-endian uint32 length (of what follows), a type byte,
// then the payload. The engine writes frames in program order, so console
// lines and calls reach the host in the order the program made them.
const (
	frameHello     = 'H' // engine → host, once: wireVersion
	frameStart     = 'S' // host → engine: JSON startMsg
	frameSettle    = 'R' // host → engine: a nested call's settlement (see settleFrame)
	frameInterrupt = 'I' // host → engine: JSON Failure; stop the program
	frameLog       = 'L' // engine → host: level byte, then the line
	frameCall      = 'C' // engine → host: uint32 n, uint16 name length, name, JSON arguments
	frameWait      = 'W' // engine → host: uint32 n; the program now waits for call n alone
	frameDone      = 'D' // engine → host: JSON doneMsg; the run is over
)

// wireVersion changes with any incompatible change to the frames; the host
// refuses an engine that greets it with another.
const wireVersion = "ptc-runcode/2"

// Settlement kinds (the first payload byte after the call number).
const (
	settleJSON   = 'j' // JSON text of the value
	settleString = 's' // a string value as UTF-8 (valid UTF-8 only)
	settleNull   = 'n'
	settleTrue   = 't'
	settleFalse  = 'f'
	settleError  = 'e' // JSON callError
)

// callError is a failed nested call as the program sees it (ToolCallError).
type callError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// errFrameTooLarge is a frame over the reader's limit: a protocol
// violation, after which the stream cannot be trusted.
var errFrameTooLarge = errors.New("frame too large")

// frameReader reads frames from one stream; it is used by one goroutine.
// A read cut short by a wake (the engine's loop is woken that way, see
// inbox) loses nothing: the bytes of a partly read frame stay in the
// reader and the next call goes on with them.
type frameReader struct {
	r   *bufio.Reader
	max int

	// A frame larger than the buffer is read into big across calls.
	big    []byte
	bigTyp byte
	bigN   int
}

// frameBuffer is a reader's buffer: frames up to its size are read with
// as few system calls as the writer made.
const frameBuffer = 64 << 10

func newFrameReader(r io.Reader, max int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, frameBuffer), max: max}
}

// next returns the next frame's type and payload (a fresh slice).
func (fr *frameReader) next() (byte, []byte, error) {
	if fr.big == nil {
		h, err := fr.r.Peek(5)
		if err != nil {
			return 0, nil, unexpectedEOF(err, len(h) > 0)
		}
		n := int(binary.LittleEndian.Uint32(h[:4]))
		if n < 1 || n-1 > fr.max {
			return 0, nil, fmt.Errorf("%w (%d bytes, limit %d)", errFrameTooLarge, n, fr.max)
		}
		typ := h[4]
		if 4+n <= fr.r.Size() {
			all, err := fr.r.Peek(4 + n)
			if err != nil {
				return 0, nil, unexpectedEOF(err, true)
			}
			p := make([]byte, n-1)
			copy(p, all[5:])
			_, _ = fr.r.Discard(4 + n)
			return typ, p, nil
		}
		_, _ = fr.r.Discard(5)
		fr.big, fr.bigTyp, fr.bigN = make([]byte, n-1), typ, 0
	}
	for fr.bigN < len(fr.big) {
		k, err := fr.r.Read(fr.big[fr.bigN:])
		fr.bigN += k
		if err != nil {
			return 0, nil, unexpectedEOF(err, true)
		}
	}
	p := fr.big
	fr.big = nil
	return fr.bigTyp, p, nil
}

// waitFrameSize is a whole wait frame on the wire.
const waitFrameSize = 4 + 1 + 4

// takeWait reports whether the next frame is already buffered and is a
// wait frame for call n, and consumes it if so. It never blocks.
func (fr *frameReader) takeWait(n int) bool {
	if fr.big != nil || fr.r.Buffered() < waitFrameSize {
		return false
	}
	p, _ := fr.r.Peek(waitFrameSize)
	if binary.LittleEndian.Uint32(p) != 5 || p[4] != frameWait || binary.LittleEndian.Uint32(p[5:]) != uint32(n) {
		return false
	}
	_, _ = fr.r.Discard(waitFrameSize)
	return true
}

// unexpectedEOF turns the end of the stream inside a frame into
// io.ErrUnexpectedEOF; an end between frames stays io.EOF.
func unexpectedEOF(err error, inFrame bool) error {
	if inFrame && err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// frameWriter writes whole frames to one stream from any goroutine.
type frameWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func newFrameWriter(w io.Writer) *frameWriter {
	return &frameWriter{w: bufio.NewWriterSize(w, frameBuffer)}
}

// write sends one frame made of the concatenated parts, and every frame
// buffered before it.
func (fw *frameWriter) write(typ byte, parts ...[]byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if err := fw.put(typ, parts); err != nil {
		return err
	}
	return fw.w.Flush()
}

// buffer queues one frame without sending it: it leaves with the next
// write or flush (or when the buffer fills). The engine buffers the calls
// a program makes until it waits, so a Promise.all's calls travel in one
// system call and one wake-up of the host.
func (fw *frameWriter) buffer(typ byte, parts ...[]byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return fw.put(typ, parts)
}

// flush sends the buffered frames.
func (fw *frameWriter) flush() error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return fw.w.Flush()
}

// flushIdle sends the buffered frames unless another goroutine is writing
// (and so sending them) now.
func (fw *frameWriter) flushIdle() {
	if fw.mu.TryLock() {
		_ = fw.w.Flush()
		fw.mu.Unlock()
	}
}

func (fw *frameWriter) put(typ byte, parts [][]byte) error {
	n := 1
	for _, p := range parts {
		n += len(p)
	}
	var h [5]byte
	binary.LittleEndian.PutUint32(h[:4], uint32(n))
	h[4] = typ
	if _, err := fw.w.Write(h[:]); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := fw.w.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// u32 and u16 encode the fixed-size integer fields of frames.
func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }

// callFrame is the payload of a frameCall.
type callFrame struct {
	n    int
	name string
	args string

	alone bool // a wait frame for this call came with it (not on the wire)
}

func encodeCall(c callFrame) [][]byte {
	return [][]byte{u32(uint32(c.n)), u16(uint16(len(c.name))), []byte(c.name), []byte(c.args)}
}

func decodeCall(p []byte) (callFrame, error) {
	if len(p) < 6 {
		return callFrame{}, errors.New("short call frame")
	}
	n := binary.LittleEndian.Uint32(p)
	l := int(binary.LittleEndian.Uint16(p[4:]))
	if len(p) < 6+l {
		return callFrame{}, errors.New("short call frame")
	}
	return callFrame{n: int(n), name: string(p[6 : 6+l]), args: string(p[6+l:])}, nil
}

// settleFrame is the payload of a frameSettle.
type settleFrame struct {
	n    int
	kind byte
	body []byte
}

func decodeSettle(p []byte) (settleFrame, error) {
	if len(p) < 5 {
		return settleFrame{}, errors.New("short settle frame")
	}
	return settleFrame{n: int(binary.LittleEndian.Uint32(p)), kind: p[4], body: p[5:]}, nil
}

// startMsg asks the engine to run one program.
type startMsg struct {
	CallID     string   `json:"callId"`
	Code       string   `json:"code"`
	Tools      []string `json:"tools"`
	HardOutput int      `json:"hardOutput"`
	HeapLimit  uint64   `json:"heapLimit"`
	HeapSample int64    `json:"heapSampleNs"`
	CallStack  int      `json:"callStack"`
	MaxCalls   int      `json:"maxCalls"`
}

// doneMsg ends a run; its frame is uint32 header length, the JSON header,
// then the JSON of the return value (nothing for undefined). Retire tells
// the host the engine process exits instead of taking another program
// (its memory grew, or the engine failed).
type doneMsg struct {
	Failure *Failure `json:"failure,omitempty"`
	Retire  bool     `json:"retire,omitempty"`
	Result  []byte   `json:"-"`
}

func encodeDone(d doneMsg) [][]byte {
	h, _ := json.Marshal(d) // plain strings and ints: cannot fail
	return [][]byte{u32(uint32(len(h))), h, d.Result}
}

func decodeDone(p []byte) (doneMsg, error) {
	var d doneMsg
	if len(p) < 4 {
		return d, errors.New("short done frame")
	}
	l := int(binary.LittleEndian.Uint32(p))
	if len(p) < 4+l {
		return d, errors.New("short done frame")
	}
	if err := json.Unmarshal(p[4:4+l], &d); err != nil {
		return d, err
	}
	if r := p[4+l:]; len(r) > 0 {
		d.Result = r
	}
	return d, nil
}
