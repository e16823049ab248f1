package tools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Errors of Approvals.Answer.
var (
	// ErrAnswered: the request was answered (or closed) before this
	// answer came; the first answer stands.
	ErrAnswered = errors.New("the request was already answered")
	// ErrNoRequest: no request of that id was ever opened here.
	ErrNoRequest = errors.New("no such request")
)

// AnsweredError is the ErrAnswered of a request closed before the answer
// came: Reply is the answer that won (zero, with Err set, when the request
// closed without one: cancelled, nobody left), so a front end can tell the
// person who lost the race what was decided. errors.Is(err, ErrAnswered).
type AnsweredError struct {
	ID    string
	Reply Reply
	Err   error
}

func (e *AnsweredError) Error() string { return "request " + e.ID + ": " + ErrAnswered.Error() }

// Is makes an AnsweredError an ErrAnswered.
func (e *AnsweredError) Is(target error) bool { return target == ErrAnswered }

// keepClosed is how many closed requests remember their outcome for
// AnsweredError.
const keepClosed = 64

// Change tells subscribers that a request opened (Closed false) or closed:
// answered (Reply), or ended without an answer (Err: the call was
// cancelled, nobody was left to answer).
type Change struct {
	Request Question
	Closed  bool
	Reply   Reply
	Err     error
}

// state is what every policy view of one Approvals shares: the session's
// grants and its registry of open requests.
type state struct {
	mu     sync.Mutex
	grants []session.Grant
	pre    []preanswer
	next   int // the number of the last request id given
	open   map[string]*request
	order  []string   // open ids, oldest first
	closed []*request // the last keepClosed closed, oldest first
	subs   map[int]func(Change)
	fronts map[int]Answerer // joined front ends; nil for those that answer by id
	nextID int              // of subs and fronts

	// queue holds changes not yet told to subscribers; delivering is set
	// while a goroutine tells them, so they hear changes in order.
	queue      []Change
	delivering bool
}

// request is one open request.
type request struct {
	q       Question
	done    chan struct{} // closed when the request closes
	reply   Reply
	err     error
	waiting int                // front ends that may still answer
	ctx     context.Context    // of the attended prompts
	stop    context.CancelFunc // ends ctx
}

func newState() *state {
	return &state{open: map[string]*request{}, subs: map[int]func(Change){}, fronts: map[int]Answerer{}}
}

// requestNumber parses a request id ("r12" → 12).
func requestNumber(id string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "r"))
	return n, err == nil && strings.HasPrefix(id, "r") && n > 0
}

// Pending returns the open requests, oldest first.
func (a *Approvals) Pending() []Question {
	st := a.st
	st.mu.Lock()
	defer st.mu.Unlock()
	qs := make([]Question, 0, len(st.order))
	for _, id := range st.order {
		qs = append(qs, st.open[id].q)
	}
	return qs
}

// Subscribe calls fn for every request opened or closed from now on, in
// the order it happened, on a goroutine that changed the registry (one
// at a time). fn may call the registry, Answer included, but must be
// quick: it holds up the other subscribers. The returned function
// unsubscribes. Subscribing does not make requests wait: see Join and
// Attend.
func (a *Approvals) Subscribe(fn func(Change)) (cancel func()) {
	st := a.st
	st.mu.Lock()
	defer st.mu.Unlock()
	st.nextID++
	id := st.nextID
	st.subs[id] = fn
	return func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		delete(st.subs, id)
	}
}

// Join says a front end that answers by id (Answer) is present, such as
// a server whose clients come and go: while any front end is joined or
// attended, requests wait for an answer; with none, they fail at once
// with ErrNoAnswerer (a headless run fails closed). leave undoes it;
// requests that only it could answer then close with ErrNoAnswerer.
func (a *Approvals) Join() (leave func()) {
	leave, _ = a.st.join(nil)
	return leave
}

// Attend joins ans, a front end that prompts one person: every request
// open now or opened later is put to it on a goroutine of its own, with a
// context that ends when the request closes (another front end answered,
// the call was cancelled). Its reply answers the request; its error (say
// ErrNoAnswerer when its terminal is gone) closes it once no other front
// end may answer.
func (a *Approvals) Attend(ans Answerer) (leave func()) {
	leave, now := a.st.join(ans)
	for _, r := range now {
		a.st.prompt(ans, r)
	}
	return leave
}

// join adds a front end, counting it for the requests open now, which it
// returns (under the same lock, so none is missed or put twice).
func (st *state) join(ans Answerer) (func(), []*request) {
	st.mu.Lock()
	st.nextID++
	id := st.nextID
	st.fronts[id] = ans
	now := make([]*request, 0, len(st.order))
	for _, oid := range st.order {
		r := st.open[oid]
		r.waiting++
		now = append(now, r)
	}
	st.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			st.mu.Lock()
			delete(st.fronts, id)
			var gone []*request
			for _, oid := range st.order {
				r := st.open[oid]
				if r.waiting--; r.waiting <= 0 {
					gone = append(gone, r)
				}
			}
			st.mu.Unlock()
			for _, r := range gone {
				st.close(r, Reply{}, ErrNoAnswerer)
			}
		})
	}, now
}

// prompt puts r to ans on its own goroutine.
func (st *state) prompt(ans Answerer, r *request) {
	ctx, q := r.ctx, r.q
	go func() {
		reply, err := ans.Ask(ctx, q)
		if err == nil {
			st.answer(r, reply)
			return
		}
		if ctx.Err() != nil {
			return // closed already, or closing
		}
		st.mu.Lock()
		r.waiting--
		last := r.waiting <= 0
		st.mu.Unlock()
		if last {
			st.close(r, Reply{}, err)
		}
	}()
}

// Answer answers the open request id with r. The first answer wins: a
// later one gets ErrAnswered; an id never opened here gets ErrNoRequest.
func (a *Approvals) Answer(id string, r Reply) error {
	st := a.st
	st.mu.Lock()
	req, ok := st.open[id]
	last := st.next
	st.mu.Unlock()
	if !ok {
		if n, valid := requestNumber(id); valid && n <= last {
			return st.answered(id)
		}
		return fmt.Errorf("request %q: %w", id, ErrNoRequest)
	}
	if !st.answer(req, r) {
		return st.answered(id)
	}
	return nil
}

// answered is the AnsweredError of the closed request id.
func (st *state) answered(id string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, r := range st.closed {
		if r.q.ID == id {
			return &AnsweredError{ID: id, Reply: r.reply, Err: r.err}
		}
	}
	return &AnsweredError{ID: id}
}

// answer closes r with reply, unless it closed already.
func (st *state) answer(r *request, reply Reply) bool { return st.close(r, reply, nil) }

// openRequest gives q the next id, records it (approval/asked, before
// any front end sees it) and registers it with every front end present;
// with none it returns ErrNoAnswerer and records nothing. ctx bounds the
// attended prompts.
func (st *state) openRequest(ctx context.Context, q Question, record func(Question) error) (*request, Question, error) {
	st.mu.Lock()
	if len(st.fronts) == 0 {
		st.mu.Unlock()
		return nil, q, ErrNoAnswerer
	}
	st.next++
	q.ID = "r" + strconv.Itoa(st.next)
	st.mu.Unlock()
	if err := record(q); err != nil {
		return nil, q, err
	}
	pctx, stop := context.WithCancel(ctx)
	r := &request{q: q, done: make(chan struct{}), ctx: pctx, stop: stop}
	st.mu.Lock()
	r.waiting = len(st.fronts)
	if r.waiting == 0 { // the last front end left while recording
		st.mu.Unlock()
		stop()
		return nil, q, ErrNoAnswerer
	}
	st.open[q.ID] = r
	st.order = append(st.order, q.ID)
	var prompts []Answerer
	for _, f := range st.fronts {
		if f != nil {
			prompts = append(prompts, f)
		}
	}
	st.tell(Change{Request: q})
	for _, p := range prompts {
		st.prompt(p, r)
	}
	return r, q, nil
}

// close ends r with an answer or an error; false if it was closed.
func (st *state) close(r *request, reply Reply, err error) bool {
	st.mu.Lock()
	if _, ok := st.open[r.q.ID]; !ok {
		st.mu.Unlock()
		return false
	}
	delete(st.open, r.q.ID)
	for i, id := range st.order {
		if id == r.q.ID {
			st.order = append(st.order[:i:i], st.order[i+1:]...)
			break
		}
	}
	r.reply, r.err = reply, err
	if len(st.closed) == keepClosed {
		st.closed = st.closed[1:]
	}
	st.closed = append(st.closed, r)
	close(r.done)
	r.stop()
	st.tell(Change{Request: r.q, Closed: true, Reply: reply, Err: err})
	return true
}

// tell queues c for the subscribers and, unless another goroutine is
// delivering already, delivers the queue in order. It is called with mu
// held and releases it; subscribers run without it, so they may call the
// registry (even Answer, whose change joins the queue).
func (st *state) tell(c Change) {
	st.queue = append(st.queue, c)
	if st.delivering {
		st.mu.Unlock()
		return
	}
	st.delivering = true
	for len(st.queue) > 0 {
		batch := st.queue
		st.queue = nil
		subs := make([]func(Change), 0, len(st.subs))
		for _, fn := range st.subs {
			subs = append(subs, fn)
		}
		st.mu.Unlock()
		for _, c := range batch {
			for _, fn := range subs {
				fn(c)
			}
		}
		st.mu.Lock()
	}
	st.delivering = false
	st.mu.Unlock()
}

// wait blocks until r closes or ctx ends (which closes it with ctx's
// error).
func (st *state) wait(ctx context.Context, r *request) (Reply, error) {
	select {
	case <-r.done:
	case <-ctx.Done():
		st.close(r, Reply{}, ctx.Err())
		<-r.done
	}
	return r.reply, r.err
}
