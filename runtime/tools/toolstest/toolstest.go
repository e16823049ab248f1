// Package toolstest holds recording fakes of the tool runtime's seams —
// the event Sink and the Answerer that stands for the user — for tests of
// tools and of what runs them. (Package tools' own tests cannot import it
// and keep their copies.)
package toolstest

import (
	"context"
	"sync"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Sink is a tools.Sink that keeps every event; safe for concurrent use.
type Sink struct {
	mu    sync.Mutex
	types []string
	data  []any
}

// Emit keeps the event.
func (s *Sink) Emit(typ string, data any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.types = append(s.types, typ)
	s.data = append(s.data, data)
	return nil
}

// Types returns the types of the events so far, in order.
func (s *Sink) Types() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.types...)
}

// Count returns how many events of type typ were kept so far.
func (s *Sink) Count(typ string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, t := range s.types {
		if t == typ {
			n++
		}
	}
	return n
}

// Reset forgets the events so far (a benchmark reuses one Sink).
func (s *Sink) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.types, s.data = s.types[:0], s.data[:0]
}

// Data returns the data of the events so far, in order.
func (s *Sink) Data() []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]any(nil), s.data...)
}

// Answerer is a tools.Answerer that gives Answers in order, the last one
// again to every later question, and keeps each question it is asked.
// Err, when set, is returned instead of an answer; with neither it
// returns tools.ErrNoAnswerer, as a session without a user does. Safe for
// concurrent use.
type Answerer struct {
	Answers []string
	Err     error

	mu    sync.Mutex
	asked []tools.Question
}

// Answer is an Answerer giving answers in order.
func Answer(answers ...string) *Answerer { return &Answerer{Answers: answers} }

// Ask keeps q and answers it.
func (a *Answerer) Ask(_ context.Context, q tools.Question) (tools.Reply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
	switch {
	case a.Err != nil:
		return tools.Reply{}, a.Err
	case len(a.Answers) == 0:
		return tools.Reply{}, tools.ErrNoAnswerer
	}
	return tools.Reply{Answer: a.Answers[min(len(a.asked), len(a.Answers))-1]}, nil
}

// Approvals is a service under policy ask with a attending it: the
// session's Approvals as a test with a scripted user sees it.
func Approvals(a tools.Answerer) *tools.Approvals {
	svc := tools.NewApprovals(tools.PolicyAsk)
	svc.Attend(a)
	return svc
}

// Asked returns the questions asked so far, in order.
func (a *Answerer) Asked() []tools.Question {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]tools.Question(nil), a.asked...)
}
