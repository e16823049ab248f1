package agent

import (
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Input is one piece of user-side input waiting to enter the log as a
// user/message.
type Input struct {
	Text   string
	Source session.Source
}

// Inbox holds input that has not entered the log yet: the next-turn queue
// (each item starts its own turn) and the next-step queue (steering text
// and tool-supplied context, joined at the next step boundary of the
// running turn, or the start of the next turn). Safe for concurrent use.
type Inbox struct {
	mu       sync.Mutex
	turns    []Input
	steering []Input
}

// Followup queues text from the user as a new turn.
func (b *Inbox) Followup(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.turns = append(b.turns, Input{Text: text, Source: session.Source{Kind: "user"}})
}

// Steer queues input to join the running turn at its next step boundary.
func (b *Inbox) Steer(in Input) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.steering = append(b.steering, in)
}

// Pending reports how many inputs wait in each queue.
func (b *Inbox) Pending() (turns, steps int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.turns), len(b.steering)
}

// TakeFollowups removes and returns the follow-ups no turn has taken
// yet, oldest first: after a cancelled run the user gets back what they
// had queued instead of it being sent on their behalf.
func (b *Inbox) TakeFollowups() []Input { return b.take(&b.turns) }

// TakeSteering removes and returns the input waiting for the next step
// boundary, so that a runtime can start a turn with it while idle (the
// notice of a background subagent that finished between turns).
func (b *Inbox) TakeSteering() []Input { return b.claimSteps() }

func (b *Inbox) nextTurn() (Input, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.turns) == 0 {
		return Input{}, false
	}
	in := b.turns[0]
	b.turns = b.turns[1:]
	return in, true
}

func (b *Inbox) claimSteps() []Input { return b.take(&b.steering) }

// take empties one of the queues and returns what it held.
func (b *Inbox) take(q *[]Input) []Input {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := *q
	*q = nil
	return out
}
