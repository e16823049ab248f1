package tui

import (
	"context"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Run shows the TUI on the terminal until the user leaves, then returns
// (the caller prints the resume command). ans is the answerer the
// sessions were opened with: while the TUI runs, approvals and questions
// go to its dialog. notes receives lines from the session's background
// work (MCP servers restarting) while the TUI runs.
func Run(be Backend, cfg Config, ans *Answerer) error {
	m := New(be, cfg)
	p := tea.NewProgram(m, tea.WithAltScreen())
	m.subscribe(p.Send)
	ans.attach(p.Send)
	defer ans.detach()
	defer m.stopSub()
	_, err := p.Run()
	m.pump.stop()
	return err
}

// pump carries events from the goroutines appending them to the event
// loop without ever blocking the appender: events queue here and one
// goroutine sends them on in batches (a burst of chunks is one redraw).
type pump struct {
	mu      sync.Mutex
	queue   []item
	wake    chan struct{}
	done    chan struct{}
	stopped sync.Once
}

func newPump(send func(tea.Msg)) *pump {
	p := &pump{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.run(send)
	return p
}

func (p *pump) push(it item) {
	p.mu.Lock()
	p.queue = append(p.queue, it)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *pump) run(send func(tea.Msg)) {
	for {
		select {
		case <-p.done:
			return
		case <-p.wake:
		}
		p.mu.Lock()
		batch := p.queue
		p.queue = nil
		p.mu.Unlock()
		if len(batch) > 0 {
			send(eventsMsg(batch))
		}
	}
}

func (p *pump) stop() {
	if p != nil {
		p.stopped.Do(func() { close(p.done) })
	}
}

// Answerer puts approvals and questions to the user: to the TUI's dialog
// while it runs, otherwise to Fallback (the line prompt, used while the
// first session opens before the TUI starts). It is safe for concurrent
// use; parallel asks queue in the dialog.
type Answerer struct {
	Fallback tools.Answerer

	mu   sync.Mutex
	send func(tea.Msg)
	done chan struct{} // closed when the TUI stops
}

// NewAnswerer returns an Answerer that uses fallback until a TUI runs.
func NewAnswerer(fallback tools.Answerer) *Answerer { return &Answerer{Fallback: fallback} }

func (a *Answerer) attach(send func(tea.Msg)) {
	a.mu.Lock()
	a.send, a.done = send, make(chan struct{})
	a.mu.Unlock()
}

func (a *Answerer) detach() {
	a.mu.Lock()
	if a.done != nil {
		close(a.done)
	}
	a.send, a.done = nil, nil
	a.mu.Unlock()
}

// Ask implements tools.Answerer.
func (a *Answerer) Ask(ctx context.Context, q tools.Question) (tools.Reply, error) {
	a.mu.Lock()
	send, done := a.send, a.done
	a.mu.Unlock()
	if send == nil {
		if a.Fallback == nil {
			return tools.Reply{}, tools.ErrNoAnswerer
		}
		return a.Fallback.Ask(ctx, q)
	}
	ask := &pendingAsk{q: q, reply: make(chan askReply, 1)}
	send(askMsg{ask})
	select {
	case r := <-ask.reply:
		return tools.Reply{Answer: r.answer, Pattern: r.pattern, Via: "tui"}, r.err
	case <-ctx.Done():
		send(askEndedMsg{ask})
		return tools.Reply{}, ctx.Err()
	case <-done:
		return tools.Reply{}, tools.ErrNoAnswerer
	}
}

// Notify shows a line in the TUI while it runs; false when none runs.
func (a *Answerer) Notify(text string) bool {
	a.mu.Lock()
	send := a.send
	a.mu.Unlock()
	if send == nil {
		return false
	}
	go send(noteMsg{toneWarn, text})
	return true
}
