package shell

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// sortBudget is how many bytes of lines sort holds in memory. Past it the
// lines read so far are sorted and written to a temporary file (a run),
// and the runs are merged at the end, so sort's memory stays bounded
// whatever its input (GNU sort does the same past its buffer size).
var sortBudget = 16 << 20

// sortRec is a line and its prepared keys.
type sortRec struct {
	line string
	keys []sortVal
}

// sortMerge gathers sort's input: in memory up to its budget, in sorted
// runs on disk past it.
type sortMerge struct {
	c       *cmd
	lineEnd byte
	budget  int
	makeRec func(string) sortRec
	full    func(a, b *sortRec) int
	tmpDir  string

	plain   bool // lines compare bytewise (sortSpec.plain, not -c)
	reverse bool // with plain: -r

	oneKey     bool // one bytewise key (sortSpec.oneBytewiseKey): decoratedOrder
	oneKeyTies bool // with oneKey or oneNumeric: -s or -u, equal keys stay in input order
	oneNumeric bool // one -n key (sortSpec.oneNumericKey): numericOrder
	numReverse bool // with oneNumeric: the key's -r

	recs  []sortRec
	lines []string // with plain: the lines, until sorted into recs
	bytes int
	runs  []string // paths of the runs written so far
	err   error
}

// add reads one input's lines (forEachInput's callback) a block at a
// time: each block of whole lines becomes one string the lines are cut
// from, not a string per line (an allocation per line was much of sort's
// time in the guest).
func (m *sortMerge) add(_ string, r io.Reader) error {
	buf := make([]byte, 256<<10)
	carry := 0 // an unfinished line at buf's start
	for {
		if carry == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
		n, err := io.ReadAtLeast(r, buf[carry:], 1)
		end := carry + n
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return err
		}
		whole := end
		if !eof {
			whole = bytes.LastIndexByte(buf[:end], m.lineEnd) + 1
		}
		if whole > 0 {
			if err := m.addBlock(string(buf[:whole])); err != nil {
				return err
			}
		}
		if eof {
			return nil
		}
		carry = copy(buf, buf[whole:end])
	}
}

// addBlock adds the lines of block; only the input's last may lack its
// end.
func (m *sortMerge) addBlock(block string) error {
	for block != "" {
		line := block
		if i := strings.IndexByte(block, m.lineEnd); i >= 0 {
			line, block = block[:i], block[i+1:]
		} else {
			block = ""
		}
		if m.plain {
			m.lines = append(m.lines, line)
		} else {
			m.recs = append(m.recs, m.makeRec(line))
		}
		if m.bytes += len(line) + 1; m.bytes > m.budget {
			if m.err = m.spill(); m.err != nil {
				return m.err // forEachInput reports it
			}
		}
	}
	return nil
}

func (m *sortMerge) empty() bool { return len(m.recs) == 0 && len(m.lines) == 0 && len(m.runs) == 0 }

// spill sorts the lines in memory and writes them out as a run.
func (m *sortMerge) spill() error {
	dir := m.tmpDir
	if dir == "" {
		dir = orDefault(m.c.hc.Env.Get("TMPDIR").String(), "/tmp")
	}
	f, err := os.CreateTemp(m.c.path(dir), "ptc-sort-*")
	if err != nil {
		return fmt.Errorf("cannot create a temporary file in %s for the lines past %d MiB: %s", dir, m.budget>>20, errText(err))
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	for _, i := range m.order() {
		r := &m.recs[i]
		bw.WriteString(r.line)
		bw.WriteByte(m.lineEnd)
	}
	err = bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	m.runs = append(m.runs, f.Name())
	m.recs, m.bytes = m.recs[:0], 0
	if err != nil {
		return fmt.Errorf("writing a temporary file: %s", errText(err))
	}
	return nil
}

// each calls f with the lines in order: the sorted memory when nothing
// was spilled, else a merge of the runs and the memory.
func (m *sortMerge) each(f func(*sortRec)) error {
	ord := m.order()
	if len(m.runs) == 0 {
		for _, i := range ord {
			f(&m.recs[i])
		}
		return nil
	}
	h := &runHeap{full: m.full}
	for i, p := range m.runs {
		file, err := os.Open(p)
		if err != nil {
			return err
		}
		defer file.Close()
		src := &runSource{br: bufio.NewReaderSize(file, 64<<10), order: i, m: m}
		if src.next() {
			h.items = append(h.items, src)
		}
	}
	mem := &runSource{mem: m.recs, ord: ord, order: len(m.runs), m: m}
	if mem.next() {
		h.items = append(h.items, mem)
	}
	heap.Init(h)
	for h.Len() > 0 {
		top := h.items[0]
		f(&top.cur)
		if top.next() {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return m.err
}

// order returns the indexes of the lines in memory in sorted order, ties
// in input order: sorting 4-byte indexes with an O(n log n) sort instead
// of moving the records with a stable one (insertion sort and in-place
// merges, O(n log² n) moves) was most of sort -k's time.
func (m *sortMerge) order() []int32 {
	if m.plain {
		m.sortPlain()
	}
	if m.oneKey {
		if ord, ok := m.decoratedOrder(); ok {
			return ord
		}
	}
	if m.oneNumeric {
		return m.numericOrder()
	}
	ord := make([]int32, len(m.recs))
	for i := range ord {
		ord[i] = int32(i)
	}
	if m.plain {
		return ord
	}
	slices.SortFunc(ord, func(a, b int32) int {
		if r := m.full(&m.recs[a], &m.recs[b]); r != 0 {
			return r
		}
		return int(a - b)
	})
	return ord
}

// sortPlain sorts the lines of a sort with no keys and no ordering but
// -r with slices.Sort, whose comparisons are inlined (a comparator
// through closures cost four wasm calls per comparison, most of
// `sort | uniq -c`), and makes them the records in that order. Equal
// lines are identical, so no tie needs breaking.
func (m *sortMerge) sortPlain() {
	slices.Sort(m.lines)
	if m.reverse {
		slices.Reverse(m.lines)
	}
	m.recs = m.recs[:0]
	for _, l := range m.lines {
		m.recs = append(m.recs, sortRec{line: l})
	}
	m.lines = m.lines[:0]
}

// cleanup removes the runs.
func (m *sortMerge) cleanup() {
	for _, p := range m.runs {
		os.Remove(filepath.Clean(p))
	}
}

// runSource is one sorted run being merged: a file, or the lines still
// in memory.
type runSource struct {
	br    *bufio.Reader
	mem   []sortRec
	ord   []int32 // mem's lines in order
	order int     // the run's place in the input, which breaks ties (stable)
	cur   sortRec
	m     *sortMerge
}

func (s *runSource) next() bool {
	if s.br == nil {
		if len(s.ord) == 0 {
			return false
		}
		s.cur, s.ord = s.mem[s.ord[0]], s.ord[1:]
		return true
	}
	line, err := s.br.ReadString(s.m.lineEnd)
	if line == "" {
		if err != nil && err != io.EOF && s.m.err == nil {
			s.m.err = err
		}
		return false
	}
	if line[len(line)-1] == s.m.lineEnd {
		line = line[:len(line)-1]
	}
	s.cur = s.m.makeRec(line)
	return true
}

// runHeap orders the runs by their current lines.
type runHeap struct {
	items []*runSource
	full  func(a, b *sortRec) int
}

func (h *runHeap) Len() int { return len(h.items) }
func (h *runHeap) Less(i, j int) bool {
	if r := h.full(&h.items[i].cur, &h.items[j].cur); r != 0 {
		return r < 0
	}
	return h.items[i].order < h.items[j].order
}
func (h *runHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *runHeap) Push(x any)    { h.items = append(h.items, x.(*runSource)) }
func (h *runHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
