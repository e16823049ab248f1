package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/structured"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/toolbox"
)

// MaxDepth is the deepest a subagent may be: the root session is depth 0,
// so a session at depth MaxDepth cannot start one. The check reads the
// depth persisted in the session's header.
const MaxDepth = 3

// Child statuses besides the session.Subagent* end statuses.
const (
	childRunning     = toolbox.AgentRunning
	childInterrupted = "interrupted" // started by an earlier process that did not see it end
)

// children are the subagents one session started: each a session of its
// own (own log, header linking parent session, parent call and depth)
// run in this process with the parent's workspace and sandbox. Background
// children outlive the call that started them, not the parent session.
type children struct {
	parent *Session
	ctx    context.Context // background children's lifetime: the parent's
	cancel context.CancelFunc
	wg     sync.WaitGroup
	done   chan struct{} // a background child ended (non-blocking signal)

	mu      sync.Mutex
	closing bool // Close is waiting for the children: none may start
	byID    map[string]*child
	order   []string
}

// child is one subagent as its parent knows it.
type child struct {
	id, callID, description, preset string
	background                      bool
	status, text, failure           string
	schema                          *structured.Schema
	result                          json.RawMessage
	cancel                          context.CancelFunc // nil once ended or restored
	finished                        chan struct{}
}

func newChildren(parent *Session) *children {
	ctx, cancel := context.WithCancel(context.Background())
	return &children{parent: parent, ctx: ctx, cancel: cancel, done: make(chan struct{}, 1), byID: map[string]*child{}}
}

// restore lists the children of earlier runs from subagent/* events.
func (c *children) restore(events []session.Event) error {
	for _, e := range events {
		switch e.Type {
		case session.TypeSubagentStart:
			var d session.SubagentStart
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return fmt.Errorf("subagent/start at seq %d is not valid: %w", e.Seq, err)
			}
			c.add(&child{id: d.Child, callID: d.CallID, description: d.Description, preset: d.Preset, background: d.Background,
				status: childInterrupted, finished: closed()})
		case session.TypeSubagentEnd:
			var d session.SubagentEnd
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return fmt.Errorf("subagent/end at seq %d is not valid: %w", e.Seq, err)
			}
			if ch, ok := c.byID[d.Child]; ok {
				ch.status, ch.text, ch.failure = d.Status, d.Text, d.Failure
			}
		}
	}
	return nil
}

func closed() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

func (c *children) add(ch *child) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[ch.id]; !ok {
		c.order = append(c.order, ch.id)
	}
	c.byID[ch.id] = ch
}

func (ch *child) info() toolbox.ChildInfo {
	return toolbox.ChildInfo{AgentID: ch.id, Description: ch.description, Status: ch.status, Background: ch.background, Text: ch.text, Failure: ch.failure, Result: ch.result}
}

// start opens the child session for call and logs subagent/start in the
// parent. The child runs with the parent's workspace, model and sandbox
// (read-only while the parent is in plan mode), approval never and no
// terminal: it can never do more than its parent.
func (c *children) start(ctx context.Context, call tools.Call, in toolbox.SubagentInput) (*child, *Session, error) {
	if err := checkInput(in); err != nil {
		return nil, nil, err
	}
	p := c.parent
	depth := p.Header().Depth
	if depth+1 > MaxDepth {
		return nil, nil, tools.Errorf(tools.CodeDenied, "subagents nest at most %d deep and this session is at depth %d; do the task here", MaxDepth, depth)
	}
	st, err := c.settings(in.Preset)
	if err != nil {
		return nil, nil, err
	}
	no := false
	o := p.opts
	callID := call.ID
	if in.CallID != "" {
		callID = in.CallID
	}
	sess, err := Open(ctx, p.home, Options{Settings: st, Parent: &Parent{ID: p.ID(), CallID: callID, Depth: depth},
		Getenv: o.Getenv, Getwd: o.Getwd, Now: o.Now, Retry: o.Retry, Toolset: o.Toolset, Plan: &no, OutputSchema: in.Schema})
	if err != nil {
		return nil, nil, fmt.Errorf("the subagent's session could not be opened: %w", err)
	}
	ch := &child{id: sess.ID(), callID: callID, description: in.Description, preset: st.Preset, background: in.Background,
		schema: in.Schema, status: childRunning, finished: make(chan struct{})}
	start := session.SubagentStart{CallID: callID, Child: ch.id, Description: in.Description, Preset: st.Preset, Depth: depth + 1, Background: in.Background}
	if err := emit(ctx, session.TypeSubagentStart, start); err != nil {
		sess.Close()
		return nil, nil, fmt.Errorf("the subagent could not be recorded: %w", err)
	}
	c.add(ch)
	return ch, sess, nil
}

// Bounds of a subagent call's text.
const (
	maxPrompt      = 100_000
	maxDescription = 200
)

func checkInput(in toolbox.SubagentInput) error {
	switch {
	case strings.TrimSpace(in.Prompt) == "":
		return tools.Errorf(tools.CodeInvalidArgs, "the subagent needs a prompt: the whole task, since it sees nothing else")
	case strings.TrimSpace(in.Description) == "":
		return tools.Errorf(tools.CodeInvalidArgs, "the subagent needs a description of three to five words")
	case len(in.Prompt) > maxPrompt:
		return tools.Errorf(tools.CodeInvalidArgs, "the prompt is %d bytes; keep it under %d", len(in.Prompt), maxPrompt)
	case len(in.Description) > maxDescription:
		return tools.Errorf(tools.CodeInvalidArgs, "the description is %d bytes; three to five words will do", len(in.Description))
	}
	return nil
}

// settings are a child's: the parent's, with the preset asked for (never
// one that widens network or host programs), approval never and the
// sandbox read-only while the parent plans.
func (c *children) settings(presetID string) (session.Settings, error) {
	p := c.parent
	ps := p.Settings()
	set, err := p.home.Presets()
	if err != nil {
		return ps, err
	}
	mine, err := set.Get(ps.Preset)
	if err != nil {
		return ps, err
	}
	want := mine
	if presetID != "" {
		if want, err = set.Get(presetID); err != nil {
			return ps, tools.Errorf(tools.CodeInvalidArgs, "%v", err)
		}
	}
	if want.Network && !(ps.Network || mine.Network) {
		return ps, tools.Errorf(tools.CodeDenied, "preset %s lets host programs reach the network and this session does not; a subagent never gets more than its parent", want.ID)
	}
	if !narrower(want.HostPrograms, mine.HostPrograms) {
		return ps, tools.Errorf(tools.CodeDenied, "preset %s allows host programs this session does not; a subagent never gets more than its parent", want.ID)
	}
	st := ps
	st.Preset, st.Approval, st.MaxSteps = want.ID, string(tools.PolicyNever), 0
	if p.PlanMode() {
		st.Sandbox = string(sandbox.ReadOnly)
	}
	return st, nil
}

// narrower reports whether host program list a allows nothing b does not
// (nil means the default list).
func narrower(a, b []string) bool {
	if a == nil {
		a = hostexec.DefaultPrograms
	}
	if b == nil {
		b = hostexec.DefaultPrograms
	}
	for _, n := range a {
		if !slices.Contains(b, n) {
			return false
		}
	}
	return true
}

// run runs the child's turn to its end, closes its session and logs
// subagent/end in the parent.
func (c *children) run(ctx context.Context, ch *child, sess *Session, prompt string) {
	var out agent.Outcome
	var result json.RawMessage
	var err error
	if ch.schema != nil {
		out, result, err = sess.RunStructured(ctx, prompt, ch.schema)
	} else {
		out, err = sess.Run(ctx, prompt)
	}
	var invalid *structured.Invalid
	if errors.As(err, &invalid) {
		err = nil
	}
	stopped := ctx.Err() != nil
	cerr := sess.Close()
	status, failure := session.SubagentCompleted, ""
	switch {
	case err != nil || cerr != nil:
		status, failure = session.SubagentFailed, fmt.Sprint(firstErr(err, cerr))
	case stopped || out.Reason == session.ReasonAborted:
		status, failure = session.SubagentStopped, "it was stopped before it finished"
	case out.Reason != session.ReasonCompleted:
		status, failure = session.SubagentFailed, endedBy(out)
	case invalid != nil:
		status, failure = session.SubagentFailed, invalid.Error()+" (after one retry)"
	}
	c.mu.Lock()
	ch.status, ch.text, ch.failure, ch.result, ch.cancel = status, out.Text, failure, result, nil
	c.mu.Unlock()
	// subagent/end is in the parent's log before anyone waiting on the
	// child (agent_output, agent_stop) is let go, so what they do next
	// sees it.
	_ = emit(ctx, session.TypeSubagentEnd, session.SubagentEnd{CallID: ch.callID, Child: ch.id, Status: status, Text: clip.String(out.Text, maxEndText), Failure: failure})
	close(ch.finished)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// endedBy says why a child's turn ended without completing.
func endedBy(out agent.Outcome) string {
	if out.Failure != "" {
		return out.Failure
	}
	return "its turn ended " + out.Reason
}

// maxEndText bounds the answer copied into subagent/end (the child's own
// log keeps it whole).
const maxEndText = 16 << 10

// emit logs through the calling session's sink (its agent).
func emit(ctx context.Context, typ string, data any) error {
	if sink := tools.EnvFrom(ctx).Sink; sink != nil {
		return sink.Emit(typ, data)
	}
	return nil
}

// foreground runs the child while the call waits and returns its answer.
func (c *children) foreground(ctx context.Context, call tools.Call, in toolbox.SubagentInput) (toolbox.ChildInfo, error) {
	// Close waits for foreground children too: a cancelled turn's tool
	// call returns at once (the Runner does not wait for its body), and
	// the child must still record its end before the parent closes.
	if !c.enter() {
		return toolbox.ChildInfo{}, tools.Errorf(tools.CodeAborted, "the session is closing; no subagent starts now")
	}
	defer c.wg.Done()
	ch, sess, err := c.start(ctx, call, in)
	if err != nil {
		return toolbox.ChildInfo{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	ch.cancel = cancel
	c.mu.Unlock()
	c.run(ctx, ch, sess, in.Prompt)
	info := c.info(ch)
	if info.Status == session.SubagentCompleted {
		return info, nil
	}
	msg := fmt.Sprintf("the subagent %s (%s) %s: %s", info.AgentID, info.Description, info.Status, info.Failure)
	if info.Text != "" {
		msg += "; its partial answer: " + info.Text
	}
	code := tools.CodeToolFailed
	if info.Status == session.SubagentStopped {
		code = tools.CodeAborted
	}
	return info, tools.Errorf(code, "%s", msg) // info names the child for callers that log it (ralph)
}

// background starts the child and returns at once; its completion is
// announced to the parent at its next step boundary.
func (c *children) background(ctx context.Context, call tools.Call, in toolbox.SubagentInput) (toolbox.ChildInfo, error) {
	sink := tools.EnvFrom(ctx).Sink
	ch, sess, err := c.start(ctx, call, in)
	if err != nil {
		return toolbox.ChildInfo{}, err
	}
	bctx, cancel := context.WithCancel(tools.WithEnv(c.ctx, &tools.Env{Sink: sink}))
	c.mu.Lock()
	ch.cancel = cancel
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		c.run(bctx, ch, sess, in.Prompt)
		c.announce(ch)
	}()
	return c.info(ch), nil
}

// announce steers a finished background child's notice into the parent's
// next step, and wakes Settle.
func (c *children) announce(ch *child) {
	info := c.info(ch)
	text := fmt.Sprintf("Background subagent %s (%s) finished: %s.", info.AgentID, info.Description, info.Status)
	if info.Failure != "" {
		text += " " + info.Failure + "."
	}
	text += fmt.Sprintf(" Read its answer with agent_output {\"agent_id\": %q}.", info.AgentID)
	c.parent.inbox.Steer(agent.Input{Text: text, Source: session.Source{Kind: "plugin", Name: "subagent", Form: "notice"}})
	select {
	case c.done <- struct{}{}:
	default:
	}
}

func (c *children) info(ch *child) toolbox.ChildInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ch.info()
}

// lookup finds a child of this session by id.
func (c *children) lookup(id string) (*child, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.byID[id]; ok {
		return ch, nil
	}
	if len(c.order) == 0 {
		return nil, tools.Errorf(tools.CodeToolFailed, "no subagent %q: this session has started none", id)
	}
	return nil, tools.Errorf(tools.CodeToolFailed, "no subagent %q among this session's: %s", id, strings.Join(c.order, ", "))
}

// running counts the background children still running.
func (c *children) running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, ch := range c.byID {
		if ch.background && ch.status == childRunning {
			n++
		}
	}
	return n
}

// stopAll stops the background children and waits for every child,
// foreground ones included (their turn's end has cancelled them) (Close).
func (c *children) stopAll() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
}

// enter counts a foreground child in wg unless Close has begun waiting.
func (c *children) enter() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.wg.Add(1)
	return true
}
