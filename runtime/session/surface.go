package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// SurfaceItem is one model-visible message together with the seq of the
// event that put it on the surface. Pruned marks a tool result whose
// content a tool/pruned event replaced (Seq stays the original result's);
// Summary marks a compaction summary (Seq is its own user/message).
type SurfaceItem struct {
	Seq     int64
	Message llm.Message
	Pruned  bool
	Summary bool
}

// Surface is DeriveMessages with the origin of every message: the items
// are the request's messages in order. Replacements are applied in log
// order, each to the surface as it stood when it was appended:
//
//   - a user/message with Replaces{From, To} takes the place of the items
//     from the one with seq From through the one with seq To;
//   - a tool/pruned event swaps the content of the tool result with seq
//     Replaces.
//
// A replacement that names items not on the surface at that point (never
// written by ptc; a damaged or hand-edited log) is an error naming its seq.
func Surface(events []Event) ([]SurfaceItem, error) {
	r, err := project(events)
	if err != nil {
		return nil, err
	}
	return r.apply()
}

// projection is the decoded surface of a range of events before the
// replacements are applied: the messages in log order with their seqs,
// and the replacements with the message count at which each happens.
type projection struct {
	msgs []llm.Message
	seqs []int64
	ops  []surfaceOp
}

// surfaceOp is one replacement: a summary (span set, msg the summary) or
// a pruned result (pruned set).
type surfaceOp struct {
	at     int // len(msgs) when the op's event came
	seq    int64
	span   SurfaceSpan
	msg    llm.Message
	pruned *ToolPruned
	// rewound, for a session/rewind of the conversation, is the seq from
	// which the items on the surface leave it.
	rewound *int64
}

func (p *projection) addRewind(e *Event) error {
	var d Rewind
	if err := json.Unmarshal(e.Data, &d); err != nil {
		return err
	}
	if !d.FilesOnly {
		p.ops = append(p.ops, surfaceOp{at: len(p.msgs), seq: e.Seq, rewound: &d.From})
	}
	return nil
}

func (p *projection) addPruned(e *Event) error {
	var d ToolPruned
	if err := json.Unmarshal(e.Data, &d); err != nil {
		return err
	}
	p.ops = append(p.ops, surfaceOp{at: len(p.msgs), seq: e.Seq, pruned: &d})
	return nil
}

// messages is the message list of the projection, replacements applied.
// keep says the projection lives on (a Projector's), so a list without
// replacements is copied rather than shared.
func (p projection) messages(keep bool) ([]llm.Message, error) {
	if len(p.ops) == 0 {
		if keep {
			return append(make([]llm.Message, 0, len(p.msgs)), p.msgs...), nil
		}
		return p.msgs, nil
	}
	items, err := p.apply()
	if err != nil {
		return nil, err
	}
	out := make([]llm.Message, len(items))
	for i := range items {
		out[i] = items[i].Message
	}
	return out, nil
}

// apply replays the replacements over the projected messages.
func (p projection) apply() ([]SurfaceItem, error) {
	out := make([]SurfaceItem, 0, len(p.msgs))
	pos := make(map[int64]int, len(p.msgs))
	next := 0
	push := func(upto int) {
		for ; next < upto; next++ {
			pos[p.seqs[next]] = len(out)
			out = append(out, SurfaceItem{Seq: p.seqs[next], Message: p.msgs[next]})
		}
	}
	for _, op := range p.ops {
		push(op.at)
		var err error
		switch {
		case op.rewound != nil:
			out = rewind(out, pos, *op.rewound)
		case op.pruned != nil:
			err = prune(out, pos, op)
		default:
			out, err = summarise(out, pos, op)
		}
		if err != nil {
			return nil, err
		}
	}
	push(len(p.msgs))
	return out, nil
}

// rewind drops every item put on the surface at or after seq from (a
// summary appended since included).
func rewind(out []SurfaceItem, pos map[int64]int, from int64) []SurfaceItem {
	kept := out[:0]
	for _, it := range out {
		if it.Seq >= from {
			delete(pos, it.Seq)
			continue
		}
		pos[it.Seq] = len(kept)
		kept = append(kept, it)
	}
	return kept
}

func prune(out []SurfaceItem, pos map[int64]int, op surfaceOp) error {
	i, ok := pos[op.pruned.Replaces]
	if !ok || out[i].Message.Role != llm.RoleTool {
		return fmt.Errorf("event seq %d (%s) replaces seq %d, which is not a tool result on the surface", op.seq, TypeToolPruned, op.pruned.Replaces)
	}
	out[i].Message.Content = joinText(op.pruned.Content)
	out[i].Pruned = true
	return nil
}

func summarise(out []SurfaceItem, pos map[int64]int, op surfaceOp) ([]SurfaceItem, error) {
	i, okFrom := pos[op.span.From]
	j, okTo := pos[op.span.To]
	if !okFrom || !okTo || j < i {
		return nil, fmt.Errorf("event seq %d (%s) replaces seqs %d..%d, which are not a span of the surface", op.seq, TypeUserMessage, op.span.From, op.span.To)
	}
	for _, it := range out[i : j+1] {
		delete(pos, it.Seq)
	}
	out[i] = SurfaceItem{Seq: op.seq, Message: op.msg, Summary: true}
	out = append(out[:i+1], out[j+1:]...)
	for k := i; k < len(out); k++ {
		pos[out[k].Seq] = k
	}
	return out, nil
}

// OnSurface reports whether the event at index i of events (a surface
// event) is still on the surface at the end of events, i.e. no later
// summary replaced it and no rewind took it off. It decodes nothing when
// neither follows it.
func OnSurface(events []Event, i int) (bool, error) {
	later := false
	for _, e := range events[i+1:] {
		if e.Type == TypeRewind || e.Type == TypeUserMessage && bytes.Contains(e.Data, []byte(`"replaces"`)) {
			later = true
			break
		}
	}
	if !later {
		return true, nil
	}
	items, err := Surface(events)
	if err != nil {
		return false, err
	}
	seq := events[i].Seq
	for _, it := range items {
		if it.Seq == seq {
			return true, nil
		}
	}
	return false, nil
}

// Projector derives the surface of one growing log again and again
// without decoding the same events twice: a log only grows, so the
// decoded prefix is kept and each call decodes only the events appended
// since. Results are those of DeriveMessages and Surface. Given a list
// that is not an extension of the last one (shorter, or a different event
// where the kept prefix ends), it starts over. Safe for concurrent use.
type Projector struct {
	mu   sync.Mutex
	n    int   // events decoded
	last Event // events[n-1], to recognise an extension
	proj projection
}

// Messages is DeriveMessages(events).
func (p *Projector) Messages(events []Event) ([]llm.Message, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.extend(events); err != nil {
		return nil, err
	}
	return p.proj.messages(true)
}

// Surface is Surface(events).
func (p *Projector) Surface(events []Event) ([]SurfaceItem, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.extend(events); err != nil {
		return nil, err
	}
	return p.proj.apply()
}

func (p *Projector) extend(events []Event) error {
	if p.n > len(events) || (p.n > 0 && !sameEvent(events[p.n-1], p.last)) {
		p.n, p.proj = 0, projection{}
	}
	if p.n == len(events) {
		return nil
	}
	var more projection
	var err error
	if p.n == 0 {
		more, err = project(events)
	} else {
		more, err = deriveRange(events[p.n:])
	}
	if err != nil {
		p.n, p.proj = 0, projection{}
		return err
	}
	for _, op := range more.ops {
		op.at += len(p.proj.msgs)
		p.proj.ops = append(p.proj.ops, op)
	}
	p.proj.msgs = append(p.proj.msgs, more.msgs...)
	p.proj.seqs = append(p.proj.seqs, more.seqs...)
	p.n, p.last = len(events), events[len(events)-1]
	return nil
}

// sameEvent reports whether a and b are the same event.
func sameEvent(a, b Event) bool {
	return a.Seq == b.Seq && a.Type == b.Type && a.Time == b.Time && bytes.Equal(a.Data, b.Data)
}
