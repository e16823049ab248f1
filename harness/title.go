package harness

import (
	"context"
	"time"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/title"
)

// titler is what titling the session takes: the model of the current
// composition, and whether the preset and options allow it.
type titler struct {
	provider llm.Provider
	model    string
	on       bool
}

// titleTimeout bounds the title request: a slow model must not hold the
// end of the first turn for long.
const titleTimeout = 30 * time.Second

// title names the session after its first turn (out), once: one side
// request through runtime/title, logged as session/title. Subagents and
// forks, sessions already titled and a first turn that did not complete
// (an error, a cancel, a cap) get none;
// a failed request is dropped, and the listing keeps the first prompt's
// line. It runs before the turn is reported done, under the turn's
// context, so Cancel stops it too.
func (s *Session) title(ctx context.Context, out agent.Outcome) {
	s.mu.Lock()
	t := s.titler
	s.mu.Unlock()
	h := s.log.Header()
	if !t.on || t.provider == nil || out.Turn != 1 || h.Parent != "" || out.Reason != session.ReasonCompleted || ctx.Err() != nil {
		return
	}
	events := s.log.Events()
	prompt := title.FirstPrompt(events)
	if prompt == "" || title.Titled(events) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, titleTimeout)
	defer cancel()
	d, err := title.Ask(ctx, t.provider, t.model, prompt)
	if err != nil {
		return
	}
	_, _ = s.log.AppendDurable(ctx, session.TypeTitle, d) // a log that cannot be written fails the next append too
}
