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
	cases, err := wirecorpus.Load(wirecorpus.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			srv := wirecorpus.Serve(t, c)
			p := New(Config{Name: "openai", BaseURL: srv.URL, KeyEnv: "OPENAI_API_KEY", APIKey: "k"})
			obs := wirecorpus.Drive(context.Background(), c, p)
			obs.Requests = srv.Requests()
			for _, problem := range c.Check(obs) {
				t.Error(problem)
			}
		})
	}
}
