package openai

import (
	"context"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/wirecorpus"
)

// TestWireCorpus replays every recorded stream of ../shared/wire-corpus
// through the adapter, one subtest per case (that is, per stream shape),
// and checks what the case says must come out. cmd/ptc replays the same
// cases through the built binary.
func TestWireCorpus(t *testing.T) {
	wirecorpus.Replay(t, func(t *testing.T, c wirecorpus.Case, url string) wirecorpus.Observed {
		p := New(Config{Name: "openai", BaseURL: url, KeyEnv: "OPENAI_API_KEY", APIKey: "k"})
		return wirecorpus.Drive(context.Background(), c, p)
	})
}
