package goal

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Limits of a goal.
const (
	DefaultMaxRounds = 256
	MaxMaxRounds     = 10000
	// BlockedFrom is the first round in which the agent may report the
	// goal blocked: the first rounds must try.
	BlockedFrom     = 3
	MaxObjectiveLen = 4000
)

// Actions of update_goal (and goal/update events).
const (
	ActionCreate    = "create"
	ActionEdit      = "edit"
	ActionPause     = "pause"
	ActionResume    = "resume"
	ActionComplete  = "complete"
	ActionBlocked   = "blocked"
	ActionMaxRounds = "max-rounds"
)

// Who asks for a change (session.GoalChange.By).
const (
	ByUser    = "user"    // directly: ptc run --goal, /goal
	ByAgent   = "agent"   // a tool call
	ByRuntime = "runtime" // the round cap
)

// Turn kinds (session.GoalChange.Turn).
const (
	TurnUser  = "user"
	TurnRound = "round"
)

// Emit appends one event to the session log.
type Emit func(eventType string, data any) error

// Keeper is one session's goal. Root says whether the session is a root
// session (depth 0): in a subagent the agent can never create a goal. It
// is safe for concurrent use.
type Keeper struct {
	root bool

	commitMu sync.Mutex // orders a change with its event
	mu       sync.Mutex // guards the fields below
	goal     *session.Goal
	created  int    // goals created in the session (they are named goal-1, goal-2…)
	turn     string // the kind of the running turn, "" between turns
	round    bool   // a goal/round was logged: the next turn is a round
}

// NewKeeper returns the keeper of a session without a goal.
func NewKeeper(root bool) *Keeper {
	return &Keeper{root: root}
}

// Restore folds a session's events into the keeper (on open).
func (k *Keeper) Restore(events []session.Event) error {
	for _, e := range events {
		switch e.Type {
		case session.TypeGoalCreate, session.TypeGoalUpdate:
			var c session.GoalChange
			if err := json.Unmarshal(e.Data, &c); err != nil {
				return fmt.Errorf("%s at seq %d is not valid: %w", e.Type, e.Seq, err)
			}
			g := c.Goal
			k.mu.Lock()
			k.goal = &g
			if e.Type == session.TypeGoalCreate {
				k.created++
			}
			k.mu.Unlock()
		case session.TypeGoalRound:
			var r session.GoalRound
			if err := json.Unmarshal(e.Data, &r); err != nil {
				return fmt.Errorf("goal/round at seq %d is not valid: %w", e.Seq, err)
			}
			k.mu.Lock()
			if k.goal != nil && k.goal.ID == r.GoalID && r.Round > k.goal.Rounds {
				k.goal.Rounds = r.Round
			}
			k.mu.Unlock()
		}
		k.Observe(e)
	}
	return nil
}

// Observe follows the turns: a turn/start right after a goal/round is a
// round, any other one the user's. Feed it every event as it is appended.
func (k *Keeper) Observe(e session.Event) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch e.Type {
	case session.TypeGoalRound:
		k.round = true
	case session.TypeTurnStart:
		k.turn = TurnUser
		if k.round {
			k.turn = TurnRound
		}
		k.round = false
	case session.TypeTurnEnd:
		k.turn = ""
	}
}

// Goal returns the session's goal, if it has one (finished ones too).
func (k *Keeper) Goal() (session.Goal, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.goal == nil {
		return session.Goal{}, false
	}
	return *k.goal, true
}

// Active reports whether the goal wants more rounds.
func (k *Keeper) Active() bool {
	g, ok := k.Goal()
	return ok && g.Status == session.GoalActive
}

// Turn is the kind of the running turn ("" between turns).
func (k *Keeper) Turn() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.turn
}

// Request is a change asked of the goal. GoalID and Revision must match
// the current goal (not for create); the other fields depend on Action.
type Request struct {
	Action        string
	GoalID        string
	Revision      int
	Objective     string
	MaxRounds     int
	BlockedReason string
	By            string // ByUser or ByAgent
	CallID        string
}

// Change applies req and logs it through emit (goal/create or
// goal/update), returning the goal after it. A refusal is a *tools.Error
// the model can read; nothing is changed or logged then.
func (k *Keeper) Change(emit Emit, req Request) (session.Goal, error) {
	k.commitMu.Lock()
	defer k.commitMu.Unlock()
	k.mu.Lock()
	turn := k.turn
	prev := k.goal
	next, err := k.apply(req, turn)
	if err != nil {
		k.mu.Unlock()
		return session.Goal{}, err
	}
	k.goal = &next
	typ := session.TypeGoalUpdate
	if req.Action == ActionCreate {
		typ = session.TypeGoalCreate
		k.created++
	}
	k.mu.Unlock()
	data := session.GoalChange{Goal: next, Action: req.Action, By: req.By, CallID: req.CallID}
	if req.By == ByAgent {
		data.Turn = turn
	}
	if err := emit(typ, data); err != nil {
		k.mu.Lock()
		k.goal = prev
		if typ == session.TypeGoalCreate {
			k.created--
		}
		k.mu.Unlock()
		return session.Goal{}, fmt.Errorf("the goal change could not be recorded: %w", err)
	}
	return next, nil
}

// StartRound logs goal/round for the next round and returns it, or false
// when the goal wants no round (none, not active, or the cap reached: then
// the goal is marked max-rounds first).
func (k *Keeper) StartRound(emit Emit) (session.GoalRound, bool, error) {
	k.commitMu.Lock()
	defer k.commitMu.Unlock()
	k.mu.Lock()
	if k.goal == nil || k.goal.Status != session.GoalActive {
		k.mu.Unlock()
		return session.GoalRound{}, false, nil
	}
	g := *k.goal
	if g.Rounds >= g.MaxRounds {
		g.Status = session.GoalMaxRounds
		g.Revision++
		k.goal = &g
		k.mu.Unlock()
		err := emit(session.TypeGoalUpdate, session.GoalChange{Goal: g, Action: ActionMaxRounds, By: ByRuntime})
		return session.GoalRound{}, false, err
	}
	g.Rounds++
	k.goal = &g
	k.mu.Unlock()
	r := session.GoalRound{GoalID: g.ID, Round: g.Rounds, MaxRounds: g.MaxRounds}
	return r, true, emit(session.TypeGoalRound, r)
}

// apply is the goal after req, or why it is refused. k.mu is held.
func (k *Keeper) apply(req Request, turn string) (session.Goal, error) {
	if err := k.allowed(req, turn); err != nil {
		return session.Goal{}, err
	}
	if req.Action == ActionCreate {
		return k.create(req)
	}
	if k.goal == nil {
		return session.Goal{}, tools.Errorf(tools.CodeToolFailed, "there is no goal to update; the user sets one")
	}
	g := *k.goal
	if req.By == ByAgent && (req.GoalID != g.ID || req.Revision != g.Revision) {
		return g, tools.Errorf(tools.CodeToolFailed, "the goal changed: it is %s at revision %d (you sent %s at revision %d); call get_goal and decide again",
			g.ID, g.Revision, req.GoalID, req.Revision)
	}
	if err := transition(&g, req); err != nil {
		return g, err
	}
	g.Revision++
	return g, nil
}

// allowed applies the authority rules (see the package doc).
func (k *Keeper) allowed(req Request, turn string) error {
	switch req.Action {
	case ActionCreate, ActionEdit, ActionPause, ActionResume:
		if req.By == ByUser {
			return nil
		}
		switch {
		case !k.root:
			return tools.Errorf(tools.CodeDenied, "a subagent cannot %s a goal: only the user sets goals, in the root session", req.Action)
		case turn == TurnRound:
			return tools.Errorf(tools.CodeDenied, "a goal round cannot %s the goal: only the user may, in a turn they start; report progress, or complete or block the goal", req.Action)
		case turn != TurnUser:
			return tools.Errorf(tools.CodeDenied, "the goal can only be %s in a turn the user started", pastTense(req.Action))
		}
	case ActionComplete, ActionBlocked:
		return nil
	default:
		return tools.Errorf(tools.CodeInvalidArgs, "unknown goal action %q", req.Action)
	}
	return nil
}

func (k *Keeper) create(req Request) (session.Goal, error) {
	if g := k.goal; g != nil && (g.Status == session.GoalActive || g.Status == session.GoalPaused) {
		return session.Goal{}, tools.Errorf(tools.CodeToolFailed, "a goal is already set (%s, %s, revision %d): complete, pause or edit it instead of creating another", g.ID, g.Status, g.Revision)
	}
	obj, err := objective(req.Objective)
	if err != nil {
		return session.Goal{}, err
	}
	max := req.MaxRounds
	if max == 0 {
		max = DefaultMaxRounds
	}
	if err := checkMax(max); err != nil {
		return session.Goal{}, err
	}
	return session.Goal{ID: fmt.Sprintf("goal-%d", k.created+1), Objective: obj, MaxRounds: max, Status: session.GoalActive, Revision: 1}, nil
}

// transition changes g as req's action says, or refuses.
func transition(g *session.Goal, req Request) error {
	finished := g.Status == session.GoalComplete || g.Status == session.GoalBlocked
	if finished {
		return tools.Errorf(tools.CodeToolFailed, "the goal is already %s; the user may set a new one", g.Status)
	}
	switch req.Action {
	case ActionEdit:
		return edit(g, req)
	case ActionPause:
		if g.Status != session.GoalActive {
			return tools.Errorf(tools.CodeToolFailed, "only an active goal can be paused; it is %s", g.Status)
		}
		g.Status = session.GoalPaused
	case ActionResume:
		if g.Status != session.GoalPaused {
			return tools.Errorf(tools.CodeToolFailed, "only a paused goal can be resumed; it is %s", g.Status)
		}
		g.Status = session.GoalActive
	case ActionComplete:
		g.Status = session.GoalComplete
	case ActionBlocked:
		reason := strings.TrimSpace(req.BlockedReason)
		if reason == "" {
			return tools.Errorf(tools.CodeInvalidArgs, "blocked needs a blocked_reason saying what stops the work")
		}
		if req.By == ByAgent && g.Rounds < BlockedFrom {
			return tools.Errorf(tools.CodeDenied, "the goal cannot be reported blocked in round %d: keep trying, blocked is accepted from round %d on", g.Rounds, BlockedFrom)
		}
		g.Status, g.BlockedReason = session.GoalBlocked, clip.String(reason, MaxObjectiveLen)
	}
	return nil
}

// edit changes the objective and the cap; raising the cap of a goal the
// cap ended makes it active again.
func edit(g *session.Goal, req Request) error {
	if req.Objective == "" && req.MaxRounds == 0 {
		return tools.Errorf(tools.CodeInvalidArgs, "edit needs a new objective or max_rounds")
	}
	if req.Objective != "" {
		obj, err := objective(req.Objective)
		if err != nil {
			return err
		}
		g.Objective = obj
	}
	if req.MaxRounds != 0 {
		if err := checkMax(req.MaxRounds); err != nil {
			return err
		}
		g.MaxRounds = req.MaxRounds
		if g.Status == session.GoalMaxRounds && g.Rounds < g.MaxRounds {
			g.Status = session.GoalActive
		}
	}
	return nil
}

func objective(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", tools.Errorf(tools.CodeInvalidArgs, "the goal needs an objective")
	}
	if len(s) > MaxObjectiveLen {
		return "", tools.Errorf(tools.CodeInvalidArgs, "the objective is %d bytes; keep it under %d", len(s), MaxObjectiveLen)
	}
	return s, nil
}

func checkMax(n int) error {
	if n < 1 || n > MaxMaxRounds {
		return tools.Errorf(tools.CodeInvalidArgs, "max_rounds must be between 1 and %d, not %d", MaxMaxRounds, n)
	}
	return nil
}

func pastTense(action string) string {
	switch action {
	case ActionCreate:
		return "created"
	case ActionEdit:
		return "edited"
	case ActionPause:
		return "paused"
	}
	return "resumed"
}

// ErrNoGoal is returned by the direct (user) operations without a goal.
var ErrNoGoal = errors.New("this session has no goal; set one with --goal or /goal")
