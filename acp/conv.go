package acp

import (
	"context"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// conv is one session this connection has open: the harness session,
// the translator of its events and the outbox that carries them.
type conv struct {
	id   string
	sess *harness.Session
	tr   *translator
	out  *outbox
	logf func(string, ...any)
	// live is set once the client knows the session (after session/new,
	// after a replay): only then do events become updates.
	live atomic.Bool
}

// newConv makes a conversation; the caller gives it its outbox.
func newConv(workspace string, logf func(string, ...any)) *conv {
	return &conv{tr: newTranslator(workspace, false), logf: logf}
}

// observe is the session's Observer: it must be quick, so it only queues.
func (c *conv) observe(e session.Event) {
	if c.live.Load() {
		c.out.push(c.tr.translate(e)...)
	}
}

// replay sends the stored session as the updates it was made of, in
// order, and waits until they are sent (session/load answers after).
func (c *conv) replay(ctx context.Context) error {
	rt := newTranslator(c.tr.workspace, true)
	for _, e := range c.sess.Events() {
		c.out.push(rt.translate(e)...)
	}
	c.out.push(modeUpdate(c.sess.PlanMode()), c.commandsUpdate())
	return c.out.flush(ctx)
}

// modes is the session's mode state: ptc's default and plan mode.
func (c *conv) modes() *sdk.SessionModeState {
	return &sdk.SessionModeState{CurrentModeId: modeID(c.sess.PlanMode()), AvailableModes: []sdk.SessionMode{
		{Id: ModeDefault, Name: "Default", Description: sdk.Ptr("Work on the task: edit files and run commands, asking where the approval policy says so")},
		{Id: ModePlan, Name: "Plan", Description: sdk.Ptr("Read and plan only; the plan is put to you before anything changes")},
	}}
}

// close closes the session and sends what is still queued.
func (c *conv) close() error {
	err := c.sess.Close()
	c.out.close()
	return err
}
