package tui

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Placeholders of the input: for a prompt, and for an answer in a dialog.
const (
	inputPlaceholder  = "Ask, or /help · ctrl+j new line · @path attaches a file"
	answerPlaceholder = "your answer"
)

// Config is how a TUI starts.
type Config struct {
	// Profile is the terminal's colour profile (termenv.Ascii: none).
	Profile termenv.Profile
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Notes are lines to show first (warnings from opening the session).
	Notes []string
}

// Messages of the event loop.
type (
	eventsMsg   []item
	turnDoneMsg struct {
		out agent.Outcome
		err error
	}
	compactedMsg struct {
		res compact.Result
		err error
	}
	switchedMsg struct{ err error }
	changedMsg  struct {
		what string
		err  error
	}
	sessionsMsg struct {
		list []session.Summary
		err  error
		pick bool
	}
	indexedMsg []string
	noteMsg    struct {
		tone tone
		text string
	}
	tickMsg     time.Time
	disarmMsg   struct{} // exitArmed has passed since a ctrl+c
	askMsg      struct{ ask *pendingAsk }
	askEndedMsg struct{ ask *pendingAsk }
)

// Model is the TUI's state; *Model is the tea.Model.
type Model struct {
	be    Backend
	cfg   Config
	th    theme
	rnd   renderer
	tr    *transcript
	track *tracker
	pump  *pump

	vp     viewport.Model
	in     textarea.Model
	hist   *history
	width  int
	height int

	running   bool   // a turn runs
	busy      string // a blocking backend call other than a turn
	runStart  time.Time
	armedExit bool      // ctrl+c pressed: the next one exits (for exitArmed)
	armedAt   time.Time // when it was pressed
	// stick keeps the view at the end across a resize that found it there.
	stick bool
	// query is what ctrl+r searches the history for.
	query      string
	cancelling bool

	// typed maps a prompt queued with the backend's Followup to what the
	// user typed (before @path attachments), to give it back after a
	// cancel. The queue itself is the session's.
	typed map[string]string

	asks   []*pendingAsk
	picker *picker

	popup    []string // completion candidates
	popupSel int
	index    []string
	indexing bool

	tick    func() tea.Cmd // the redraw tick while something runs (tests: none)
	stopSub func()
	gen     int // subscription generation: events of a closed session are dropped
	quit    bool
}

// New makes the model for a backend. Run starts it on a terminal; tests
// drive Update and View directly.
func New(be Backend, cfg Config) *Model {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	th := newTheme(cfg.Profile)
	in := textarea.New()
	in.SetPromptFunc(2, func(line int) string {
		if line == 0 {
			return "› "
		}
		return "  "
	})
	in.Placeholder = inputPlaceholder
	in.ShowLineNumbers = false
	in.CharLimit = 0
	in.MaxHeight = 0
	in.SetHeight(1)
	in.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("ctrl+j", "alt+enter"))
	in.FocusedStyle.CursorLine = th.user.UnsetBold()
	in.Focus()
	m := &Model{
		be: be, cfg: cfg, th: th, in: in,
		rnd:   renderer{th: th, md: newMarkdown(cfg.Profile)},
		tr:    newTranscript(),
		track: newTracker(be.Settings().Workspace),
		vp:    viewport.New(80, 20),
		hist:  loadHistory(be.HistoryDir(), be.Settings().Workspace),
		tick:  tick,
	}
	m.vp.KeyMap = viewport.KeyMap{
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
	}
	m.load()
	for _, n := range cfg.Notes {
		m.tr.notice(toneWarn, n)
	}
	return m
}

// load rebuilds the transcript from the backend's session: the earlier
// turns of a resumed session, or the opening events of a new one.
func (m *Model) load() {
	m.tr = newTranscript()
	m.track.setWorkspace(m.be.Settings().Workspace)
	for _, ev := range m.be.Events() {
		m.tr.apply(item{ev: ev})
	}
	m.tr.turnRunning = false
	id := termsafe.Line(m.be.ID())
	if m.tr.usage.Requests > 0 {
		m.tr.notice(toneInfo, "resumed session "+id+" — the earlier turns are above")
	} else {
		m.tr.notice(toneInfo, "session "+id+" · /help · ctrl+c cancels, twice exits")
	}
}

// subscribe routes the backend's events through the tracker into the
// event loop (send is the program's Send).
func (m *Model) subscribe(send func(tea.Msg)) {
	if m.stopSub != nil {
		m.stopSub()
	}
	if m.pump == nil {
		m.pump = newPump(send)
	}
	m.gen++
	gen, pump, track := m.gen, m.pump, m.track
	m.stopSub = m.be.Subscribe(func(ev session.Event) {
		it := track.observe(ev)
		it.gen = gen
		pump.push(it)
	})
}

// Init starts the cursor blinking.
func (m *Model) Init() tea.Cmd { return textarea.Blink }

// Update is the event loop's reducer.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		// Pinned to the end before the resize stays pinned after it: the
		// new size rewraps the text, which must not read as a scroll up.
		m.stick = m.vp.AtBottom() || m.vp.TotalLineCount() <= m.vp.Height
		m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		cmds = append(cmds, m.key(msg))
	case eventsMsg:
		for _, it := range msg {
			if it.gen == m.gen {
				m.tr.apply(it)
			}
		}
	case disarmMsg:
		if !m.armed() {
			m.armedExit = false
		}
	case turnDoneMsg:
		// The turn is over: a cancel's arming (press again to force the
		// exit) has nothing left to force.
		m.running, m.cancelling, m.armedExit = false, false, false
		if msg.err != nil {
			m.tr.notice(toneError, "the turn could not run: "+msg.err.Error())
		}
		cmds = append(cmds, m.next(msg.out))
	case shellDoneMsg:
		m.busy = ""
		m.shellDone(msg)
	case jobKilledMsg:
		m.busy = ""
		m.jobKilled(msg)
	case compactedMsg:
		m.busy, m.cancelling = "", false
		switch {
		case msg.err != nil:
			m.tr.notice(toneError, "compaction: "+msg.err.Error())
		case msg.res.Failure != "":
			m.tr.notice(toneError, "compaction failed: "+msg.res.Failure)
		}
	case switchedMsg:
		m.busy = ""
		if msg.err != nil {
			m.tr.notice(toneError, msg.err.Error())
		} else {
			if m.pump != nil {
				m.subscribe(nil)
			}
			m.load()
			m.index, m.indexing = nil, false
			m.hist = loadHistory(m.be.HistoryDir(), m.be.Settings().Workspace)
		}
	case changedMsg:
		m.busy = ""
		if msg.err != nil {
			m.tr.notice(toneError, msg.what+": "+msg.err.Error())
		}
	case sessionsMsg:
		m.busy = ""
		m.sessions(msg)
	case indexedMsg:
		m.index, m.indexing = msg, false
		m.complete()
	case noteMsg:
		m.tr.notice(msg.tone, msg.text)
	case askMsg:
		m.asks = append(m.asks, msg.ask)
		m.in.Reset()
		m.in.Placeholder = answerPlaceholder
	case askEndedMsg:
		m.dropAsk(msg.ask)
	case tickMsg:
		if m.running || m.busy != "" {
			cmds = append(cmds, m.tick())
		}
	default:
		var cmd tea.Cmd
		m.in, cmd = m.in.Update(msg)
		cmds = append(cmds, cmd)
	}
	m.refresh()
	return m, tea.Batch(cmds...)
}

func tick() tea.Cmd {
	return tea.Tick(200*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m *Model) resize(w, h int) {
	m.width, m.height = w, h
	m.in.SetWidth(w)
	m.layout()
}

// maxInputRows is the tallest the input grows before it scrolls.
const maxInputRows = 8

// layout sizes the input to its content (up to maxInputRows) and gives
// the conversation the rest of the screen.
func (m *Model) layout() {
	rows := min(max(m.in.LineCount(), 1), maxInputRows)
	m.in.SetHeight(rows)
	m.vp.Width = max(m.width, 20)
	m.vp.Height = max(m.height-m.bottomHeight(), 3)
	m.rnd.width = m.vp.Width
}

// edit changes the input at its full height, so the text area never
// scrolls its first lines away while growing; layout shrinks it after.
func (m *Model) edit(fn func()) {
	m.in.SetHeight(maxInputRows)
	fn()
}

// refresh redraws the conversation, keeping the view at the bottom when
// it was there.
func (m *Model) refresh() {
	// Whether the view follows the end is decided before the layout
	// changes: a dialog opening shrinks the conversation, and that must
	// not count as the user scrolling up.
	follow := m.stick || m.vp.AtBottom() || m.vp.TotalLineCount() <= m.vp.Height
	m.stick = false
	m.layout()
	m.rnd.now = m.cfg.Now().UnixMilli()
	parts := make([]string, 0, len(m.tr.entries))
	for _, e := range m.tr.entries {
		if s := m.rnd.entry(e); s != "" {
			parts = append(parts, s)
		}
	}
	m.vp.SetContent(strings.Join(parts, "\n\n"))
	if follow {
		m.vp.GotoBottom()
	} else {
		m.vp.SetYOffset(m.vp.YOffset) // clamped to the new height
	}
}

// startTurn sends input to the model as the next turn.
func (m *Model) startTurn(input string) tea.Cmd {
	prompt := m.attach(input)
	m.running, m.runStart, m.armedExit = true, m.cfg.Now(), false
	be := m.be
	return tea.Batch(func() tea.Msg {
		out, err := be.Run(context.Background(), prompt)
		if err == nil && out.Reason != session.ReasonAborted {
			// (after a cancel, what was queued goes back to the input
			// instead: see next)
			// Background subagents report back in turns of their own.
			if more, ran, serr := be.Settle(context.Background()); serr != nil || ran {
				out, err = more, serr
			}
		}
		return turnDoneMsg{out, err}
	}, m.tick())
}

// attach is the prompt for typed text: the @path files it mentions
// attached, with a notice for each one that could not be.
func (m *Model) attach(text string) string {
	prompt, _, notes := attachMentions(text, m.be.Settings().Workspace)
	for _, n := range notes {
		m.tr.notice(toneWarn, n)
	}
	return prompt
}

// queue hands input typed while a turn runs to the session, which runs
// it as the next turn (ahead of a goal's next round).
func (m *Model) queue(text string) {
	prompt := m.attach(text)
	if m.typed == nil {
		m.typed = map[string]string{}
	}
	m.typed[prompt] = text
	m.be.Followup(prompt)
	m.tr.notice(toneInfo, "queued: it runs as the next turn, before any further goal round (ctrl+c cancels the turn and brings it back)")
}

// next follows a turn. After a cancelled turn the input still queued
// goes back into the input box (the user stopped the work, so nothing is
// sent on their behalf). Otherwise the session has run what was queued,
// unless it arrived as the turn was ending: then it runs now.
func (m *Model) next(out agent.Outcome) tea.Cmd {
	if out.Reason == session.ReasonAborted {
		var back []string
		for _, p := range m.be.TakeFollowups() {
			if t, ok := m.typed[p]; ok {
				p = t
			}
			back = append(back, p)
		}
		m.typed = nil
		if len(back) > 0 {
			text := strings.Join(back, "\n\n")
			m.edit(func() { m.in.SetValue(text) })
		}
		return nil
	}
	if m.be.Queued() == 0 {
		m.typed = nil
		return nil
	}
	return m.runQueued()
}

// runQueued runs the session's queued input (and the goal's rounds, if
// one is active) as a turn does.
func (m *Model) runQueued() tea.Cmd {
	m.running, m.runStart, m.armedExit = true, m.cfg.Now(), false
	be := m.be
	return tea.Batch(func() tea.Msg {
		out, err := be.RunGoal(context.Background())
		return turnDoneMsg{out, err}
	}, m.tick())
}

// background runs a blocking backend call off the event loop, showing
// what is going on in the status line.
func (m *Model) background(what string, fn func() tea.Msg) tea.Cmd {
	m.busy = what
	return tea.Batch(fn, m.tick())
}

// pendingAsk is an approval or question waiting for the user. pattern is
// set while the user types the pattern of an escalation's session grant
// ([p]), patternErr says why the last one typed was refused.
type pendingAsk struct {
	q          tools.Question
	reply      chan askReply
	pattern    bool
	patternErr string
}

type askReply struct {
	answer  string
	err     error
	pattern string
}

func (m *Model) dropAsk(a *pendingAsk) {
	for i, x := range m.asks {
		if x == a {
			m.asks = append(m.asks[:i], m.asks[i+1:]...)
			break
		}
	}
	if len(m.asks) == 0 {
		m.in.Placeholder = inputPlaceholder
	}
}

func (m *Model) answer(a string, err error) {
	if len(m.asks) == 0 {
		return
	}
	ask := m.asks[0]
	m.dropAsk(ask)
	ask.reply <- askReply{answer: a, err: err}
	m.in.Reset()
}
