package shell

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
)

func tail(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:c:qvfF", numeric: "n", permute: true, long: headLong}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	n, fromStart, ok := countArg(c, o, 10)
	if !ok {
		return 1
	}
	multi := (len(o.args) > 1 || o.has("v")) && !o.has("q")
	first := true
	return c.forEachInput(o.args, func(name string, r io.Reader) error {
		if multi {
			if !first {
				fmt.Fprintln(c.stdout)
			}
			fmt.Fprintf(c.stdout, "==> %s <==\n", name)
		}
		first = false
		if v := o.val("c"); v != "" {
			k, _ := strconv.Atoi(v)
			return tailBytes(c.stdout, r, k)
		}
		if fromStart {
			return skipLines(c.stdout, r, n-1)
		}
		if rs, ok := r.(io.ReadSeeker); ok {
			return tailSeek(c.stdout, rs, n)
		}
		return tailRing(c.stdout, r, n)
	})
}

// skipLines copies r to w after its first n lines (tail -n +N).
func skipLines(w io.Writer, r io.Reader, n int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for ; n > 0; n-- {
		if _, err := br.ReadSlice('\n'); err == bufio.ErrBufferFull {
			n++ // a long line: the rest of it still counts as this line
		} else if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
	_, err := br.WriteTo(w)
	return err
}

// tailSeek prints the last n lines of a file (or an in-memory input) by
// reading blocks backwards from its end: the cost is the tail's size, not
// the file's.
func tailSeek(w io.Writer, r io.ReadSeeker, n int) error {
	end, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	const block = 64 << 10
	var data []byte // the input's last bytes, read so far
	pos := end
	for pos > 0 {
		size := min(block, pos)
		pos -= size
		buf := make([]byte, size, int(size)+len(data))
		if _, err := r.Seek(pos, io.SeekStart); err != nil {
			return err
		}
		if _, err := io.ReadFull(r, buf); err != nil {
			return err
		}
		data = append(buf, data...)
		if start, found := lastLinesStart(data, n); found {
			_, err := w.Write(data[start:])
			return err
		}
	}
	_, err = w.Write(data)
	return err
}

// lastLinesStart is where the last n lines of data begin, found only when
// data holds a newline before them (otherwise more is needed in front).
func lastLinesStart(data []byte, n int) (int, bool) {
	if n <= 0 {
		return len(data), true
	}
	i := len(data)
	if i > 0 && data[i-1] == '\n' {
		i-- // the final newline ends the last line
	}
	for ; n > 0; n-- {
		j := bytes.LastIndexByte(data[:i], '\n')
		if j < 0 {
			return 0, false
		}
		i = j
	}
	return i + 1, true
}

// tailRing prints the last n lines of a stream, keeping only them: it
// reads blocks and, whenever what it holds has doubled since it last
// looked, drops what comes before the last n lines (a line cut by the
// block's end counts as one, as it is one of the last or is pushed out
// later). No string is made per line, which on the wasm guest cost more
// than everything else (cat big.log | tail -2 took 100 ms).
func tailRing(w io.Writer, r io.Reader, n int) error {
	if n <= 0 {
		_, err := io.Copy(io.Discard, r)
		return err
	}
	const block = 64 << 10
	data := make([]byte, 0, 2*block)
	kept := block // how much data held after the last trim
	for {
		if cap(data)-len(data) < block {
			data = slices.Grow(data, block)
		}
		m, err := r.Read(data[len(data) : len(data)+block])
		data = data[:len(data)+m]
		if len(data) >= 2*kept {
			if start, found := lastLinesStart(data, n); found {
				data = data[:copy(data, data[start:])]
			}
			kept = max(len(data), block)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	start, _ := lastLinesStart(data, n)
	_, err := w.Write(data[start:])
	return err
}

// tailBytes prints the last k bytes of r, keeping at most 2k of them.
func tailBytes(w io.Writer, r io.Reader, k int) error {
	if rs, ok := r.(io.ReadSeeker); ok {
		end, err := rs.Seek(0, io.SeekEnd)
		if err != nil {
			return err
		}
		if _, err := rs.Seek(max(end-int64(k), 0), io.SeekStart); err != nil {
			return err
		}
		_, err = io.Copy(w, rs)
		return err
	}
	var keep []byte
	buf := make([]byte, 64<<10)
	for {
		m, err := r.Read(buf)
		keep = append(keep, buf[:m]...)
		if len(keep) > 2*k+len(buf) {
			keep = append(keep[:0], keep[len(keep)-k:]...)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(keep[max(len(keep)-k, 0):])
	return err
}
