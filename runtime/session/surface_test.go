package session_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

func (s *script) summary(text string, from, to int64) *script {
	return s.add(session.TypeUserMessage, session.UserMessage{ID: "s", Content: session.TextBlocks(text),
		Source: session.Source{Kind: "plugin", Name: "compaction", Form: "summary"}, Replaces: &session.SurfaceSpan{From: from, To: to}})
}

func (s *script) pruned(seq int64, text string) *script {
	return s.add(session.TypeToolPruned, session.ToolPruned{Replaces: seq, CallID: "c", Name: "read", Content: session.TextBlocks(text), OriginalChars: 99})
}

// contents is the surface as "role:content" strings, easy to compare.
func contents(t *testing.T, events []session.Event) []string {
	t.Helper()
	msgs, err := session.DeriveMessages(events)
	must(t, err)
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Role)+":"+m.Content)
	}
	return out
}

// seqOf is the seq of the last event appended so far.
func (s *script) last() int64 { return int64(len(s.events) - 1) }

func TestSurfaceReplacements(t *testing.T) {
	call := func(id string) llm.ToolCall { return llm.ToolCall{ID: id, Name: "read", Arguments: "{}"} }
	base := func() (*script, []int64) {
		s := &script{t: t}
		var seqs []int64
		s.user("task")
		seqs = append(seqs, s.last())
		s.assistant(1, 1, "", call("a")).call(1, 1, "a", "read")
		seqs = append(seqs, s.last()-1)
		s.result(1, 1, "a", "read", "AAAA")
		seqs = append(seqs, s.last())
		s.assistant(1, 2, "", call("b")).call(1, 2, "b", "read")
		seqs = append(seqs, s.last()-1)
		s.result(1, 2, "b", "read", "BBBB")
		seqs = append(seqs, s.last())
		return s, seqs
	}
	t.Run("a summary takes the place of its span and what follows stays verbatim", func(t *testing.T) {
		s, seq := base()
		s.summary("SUM", seq[0], seq[2]).user("next")
		want := []string{"user:SUM", "assistant:", "tool:BBBB", "user:next"}
		if got := contents(t, s.events); !reflect.DeepEqual(got, want) {
			t.Fatalf("surface = %q, want %q", got, want)
		}
	})
	t.Run("a pruned result keeps its place, call id and name", func(t *testing.T) {
		s, seq := base()
		s.pruned(seq[2], "AA[pruned]")
		msgs, err := session.DeriveMessages(s.events)
		must(t, err)
		if m := msgs[2]; m.Content != "AA[pruned]" || m.ToolCallID != "a" || m.Name != "read" {
			t.Fatalf("pruned message = %+v", m)
		}
		items, err := session.Surface(s.events)
		must(t, err)
		if !items[2].Pruned || items[2].Seq != seq[2] || items[4].Pruned {
			t.Fatalf("items = %+v", items)
		}
	})
	t.Run("a second summary can start on the first and merge it", func(t *testing.T) {
		s, seq := base()
		s.pruned(seq[2], "short")
		s.summary("SUM1", seq[0], seq[2])
		first := s.last()
		s.user("more")
		s.summary("SUM2", first, seq[4]).user("latest")
		want := []string{"user:SUM2", "user:more", "user:latest"}
		if got := contents(t, s.events); !reflect.DeepEqual(got, want) {
			t.Fatalf("surface = %q, want %q", got, want)
		}
		items, err := session.Surface(s.events)
		must(t, err)
		if !items[0].Summary || items[0].Seq != s.last()-1 {
			t.Fatalf("first item = %+v, want the second summary", items[0])
		}
	})
	t.Run("replacements apply to the surface as it stood when they were appended", func(t *testing.T) {
		s, seq := base()
		s.summary("SUM", seq[0], seq[4])
		// A later result cannot be named by an earlier span: this prune
		// targets an item the summary already removed.
		s.pruned(seq[2], "late")
		if _, err := session.DeriveMessages(s.events); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("seq %d", s.last())) {
			t.Fatalf("err = %v, want one naming the stray prune", err)
		}
	})
	bad := []struct {
		name string
		add  func(s *script, seq []int64)
	}{
		{"a span whose end comes before its start", func(s *script, seq []int64) { s.summary("x", seq[4], seq[0]) }},
		{"a span naming a seq that is not on the surface", func(s *script, seq []int64) { s.summary("x", seq[0], 999) }},
		{"a prune of a user message", func(s *script, seq []int64) { s.pruned(seq[0], "x") }},
	}
	for _, c := range bad {
		t.Run(c.name+" is an error naming the replacing event", func(t *testing.T) {
			s, seq := base()
			c.add(s, seq)
			_, err := session.DeriveMessages(s.events)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("event seq %d", s.last())) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// compacted is a log of whole turns (until it holds size events) whose
// result is pruned every pruneEvery turns and which is summarised every
// summaryEvery turns, each summary starting on the previous one.
func compacted(t *testing.T, size, pruneEvery, summaryEvery int) *script {
	s := &script{t: t}
	var from int64 = -1
	for turn := 1; len(s.events) < size; turn++ {
		s.completeTurn(turn)
		user, result, answer := s.last()-9, s.last()-5, s.last()-2
		if from < 0 {
			from = user
		}
		if turn%pruneEvery == 0 {
			s.pruned(result, fmt.Sprintf("pruned %d", turn))
		}
		if turn%summaryEvery == 0 {
			s.summary(fmt.Sprintf("summary %d", turn), from, answer)
			from = s.last()
		}
	}
	return s
}

func TestSurfaceInParallelEqualsOnePass(t *testing.T) {
	s := compacted(t, 20_000, 7, 50)
	got, err := session.Surface(s.events)
	must(t, err)
	var want []string
	for _, it := range got {
		want = append(want, it.Message.Content)
	}
	if seq := contentsSequential(t, s.events); !reflect.DeepEqual(want, seq) {
		t.Fatalf("parallel surface differs from the sequential one (%d vs %d items)", len(want), len(seq))
	}
	if !got[0].Summary || !strings.HasPrefix(got[0].Message.Content, "summary ") {
		t.Fatalf("first item = %+v, want the latest summary", got[0])
	}
}

// contentsSequential derives the surface of events in a single range: it
// keeps only the events the projection reads, which brings a 20 k-event
// log below the parallel threshold without changing its surface.
func contentsSequential(t *testing.T, events []session.Event) []string {
	t.Helper()
	var small []session.Event
	for _, e := range events {
		switch e.Type {
		case session.TypeUserMessage, session.TypeAssistantMessage, session.TypeToolResult, session.TypeToolPruned:
			small = append(small, e)
		}
	}
	if len(small) >= 8192 {
		t.Fatalf("the reduced log has %d events, not below the parallel threshold", len(small))
	}
	msgs, err := session.DeriveMessages(small)
	must(t, err)
	var out []string
	for _, m := range msgs {
		out = append(out, m.Content)
	}
	return out
}

func TestProjectorEqualsAFreshDerivationAtEveryLength(t *testing.T) {
	s := compacted(t, 700, 3, 20)
	var p session.Projector
	check := func(n int) {
		t.Helper()
		want, err := session.Surface(s.events[:n])
		must(t, err)
		got, err := p.Surface(s.events[:n])
		must(t, err)
		msgs, err := p.Messages(s.events[:n])
		must(t, err)
		wantMsgs, err := session.DeriveMessages(s.events[:n])
		must(t, err)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(msgs, wantMsgs) {
			t.Fatalf("projector differs from a fresh derivation at %d events", n)
		}
	}
	for n := 0; n <= len(s.events); n += 7 {
		check(n)
	}
	t.Run("a list that is not an extension starts over", func(t *testing.T) {
		check(len(s.events))
		check(40)
		other := append([]session.Event(nil), s.events[:100]...)
		other[99].Data = []byte(`{"id":"x","content":[{"type":"text","text":"changed"}],"source":{"kind":"user"}}`)
		other[99].Type = session.TypeUserMessage
		want, err := session.DeriveMessages(other)
		must(t, err)
		got, err := p.Messages(other)
		must(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatal("the projector kept a prefix that changed")
		}
	})
	t.Run("a bad event is reported and forgotten", func(t *testing.T) {
		bad := append(append([]session.Event(nil), s.events...), session.Event{Seq: int64(len(s.events)), Type: session.TypeToolResult, Data: []byte(`{"content":1}`)})
		if _, err := p.Messages(bad); err == nil {
			t.Fatal("no error for an undecodable result")
		}
		check(len(s.events))
	})
}

// FuzzSurface builds a log from random surface events and replacements
// (some naming seqs that are not on the surface) and checks that Surface
// never panics, that a bad replacement is an error naming its seq, and
// that the incremental Projector agrees with a fresh derivation.
func FuzzSurface(f *testing.F) {
	f.Add([]byte{0, 1, 2, 1, 2, 3, 7, 4, 9, 0, 1, 2})
	f.Add([]byte{0, 4, 0, 4, 3, 3, 255, 4, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 300 {
			ops = ops[:300]
		}
		s := &script{t: t}
		var p session.Projector
		for i := 0; i < len(ops); i++ {
			n := int64(len(s.events)) + 1
			arg := func() int64 {
				if i+1 < len(ops) {
					i++
					return int64(ops[i]) % n
				}
				return 0
			}
			switch ops[i] % 6 {
			case 0:
				s.user("u")
			case 1:
				s.assistant(1, 1, "a", llm.ToolCall{ID: "c", Name: "read", Arguments: "{}"})
			case 2:
				s.result(1, 1, "c", "read", "r")
			case 3:
				s.pruned(arg(), "p")
			case 4:
				s.summary("s", arg(), arg())
			default:
				s.stepEnd(1, 1)
			}
			want, werr := session.Surface(s.events)
			got, gerr := p.Surface(s.events)
			if (werr == nil) != (gerr == nil) || (werr == nil && !reflect.DeepEqual(got, want)) {
				t.Fatalf("projector and Surface disagree after %d events: %v / %v", len(s.events), gerr, werr)
			}
			if werr != nil {
				if !strings.Contains(werr.Error(), fmt.Sprintf("event seq %d", s.last())) {
					t.Fatalf("error %v does not name the replacing event", werr)
				}
				return
			}
		}
	})
}
