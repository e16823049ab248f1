package compact

import (
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

func TestTokens(t *testing.T) {
	cases := []struct {
		name string
		s    string
		want int
	}{
		{"empty text is no token", "", 0},
		{"ASCII counts a quarter of its bytes, rounded up", "hello world", 3},
		{"a non-ASCII character is one token", "日本語", 3},
		{"both add up", "abcd日", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Tokens(c.s); got != c.want {
				t.Fatalf("Tokens(%q) = %d, want %d", c.s, got, c.want)
			}
		})
	}
}

func TestMeterReading(t *testing.T) {
	base := llm.Request{System: "sys", Messages: []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("a", 4000)}}}
	grown := base
	grown.Messages = append(append([]llm.Message(nil), base.Messages...), llm.Message{Role: llm.RoleTool, Content: strings.Repeat("b", 400)})
	var m Meter
	t.Run("without a reported count the reading is the estimate", func(t *testing.T) {
		if r := m.Read(base); r.Basis != BasisEstimate || r.Tokens != RequestTokens(base) {
			t.Fatalf("reading %+v", r)
		}
	})
	t.Run("with one it is the count plus the estimated change", func(t *testing.T) {
		m.Observe(base, llm.Usage{InputTokens: 1500})
		r := m.Read(grown)
		if want := 1500 + RequestTokens(grown) - RequestTokens(base); r.Tokens != want || r.Basis != BasisReported || r.Reported != 1500 {
			t.Fatalf("reading %+v, want %d", r, want)
		}
	})
	t.Run("a response without a count keeps the baseline", func(t *testing.T) {
		m.Observe(grown, llm.Usage{})
		if r := m.Read(base); r.Tokens != 1500 {
			t.Fatalf("reading %+v", r)
		}
	})
	t.Run("an overflow scales readings by the provider's verdict until the next count", func(t *testing.T) {
		m.Overflowed(grown, 5001)
		if r := m.Read(grown); r.Tokens != 5001 || r.Basis != BasisRefused {
			t.Fatalf("reading %+v, want 5001", r)
		}
		half := float64(5001) / float64(RequestTokens(grown)) * float64(RequestTokens(base))
		if r := m.Read(base); r.Tokens < int(half) || r.Tokens > int(half)+1 {
			t.Fatalf("reading of a shorter request %+v, want about %.0f", r, half)
		}
		m.Observe(base, llm.Usage{InputTokens: 1200})
		if r := m.Read(base); r.Tokens != 1200 || r.Basis != BasisReported {
			t.Fatalf("reading after a new count %+v", r)
		}
	})
}

func TestMeterRestoresItsBaselineFromTheLog(t *testing.T) {
	l := sessionWith(t, 3, 1000)
	req, err := prompt.BuildRequest(l.Events())
	must(t, err)
	l.add(t, session.TypeAssistantChunk, session.AssistantChunk{Turn: 1, Step: 4, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "done"}})
	l.add(t, session.TypeAssistantMessage, session.AssistantMessage{Turn: 1, Step: 4,
		Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}, Usage: llm.Usage{InputTokens: 777}})
	var m Meter
	must(t, m.Restore(l.Events()))
	if r := m.Read(req); r.Tokens != 777 || r.Basis != BasisReported {
		t.Fatalf("reading of the answered request = %+v, want its reported 777", r)
	}
}
