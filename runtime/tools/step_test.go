package tools

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

// span records when a tool body ran.
type span struct{ start, end time.Time }

func (a span) overlaps(b span) bool { return a.start.Before(b.end) && b.start.Before(a.end) }

type timeline struct {
	mu    sync.Mutex
	spans map[string]span
}

func (tl *timeline) tool(name string, safe bool, d time.Duration) Tool {
	opts := []Option{}
	if safe {
		opts = append(opts, Safe())
	}
	return funcTool(name, func(ctx context.Context, call Call) (any, error) {
		start := time.Now()
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
		tl.mu.Lock()
		tl.spans[call.ID] = span{start, time.Now()}
		tl.mu.Unlock()
		return call.ID, nil
	}, opts...)
}

// log records observer callbacks as "start id" / "end id".
type log struct{ lines []string }

func (l *log) CallStarted(c Call)              { l.lines = append(l.lines, "start "+c.ID) }
func (l *log) CallFinished(c Call, res Result) { l.lines = append(l.lines, "end "+c.ID+" "+code(res)) }

func (l *log) ends() []string {
	var out []string
	for _, s := range l.lines {
		if s[:3] == "end" {
			out = append(out, s)
		}
	}
	return out
}

func (l *log) starts() []string {
	var out []string
	for _, s := range l.lines {
		if s[:5] == "start" {
			out = append(out, s)
		}
	}
	return out
}

func TestRunStepRunsSafeCallsTogetherAndExclusiveCallsAlone(t *testing.T) {
	tl := &timeline{spans: map[string]span{}}
	reg := mustRegistry(t, PresentNative,
		tl.tool("slow_safe", true, 200*time.Millisecond),
		tl.tool("fast_safe", true, 10*time.Millisecond),
		tl.tool("exclusive", false, 50*time.Millisecond))
	run := NewRunner(reg, RunnerConfig{})
	calls := []Call{
		{ID: "s1", Name: "slow_safe"}, {ID: "s2", Name: "slow_safe"}, {ID: "s3", Name: "slow_safe"},
		{ID: "x", Name: "exclusive"},
		{ID: "f1", Name: "slow_safe"}, {ID: "f2", Name: "fast_safe"},
	}
	obs := &log{}
	results := run.RunStep(context.Background(), calls, obs)

	for i, r := range results {
		if r.IsError || r.Content != calls[i].ID {
			t.Fatalf("result %d = %+v", i, r)
		}
	}
	sp := tl.spans
	for _, pair := range [][2]string{{"s1", "s2"}, {"s1", "s3"}, {"s2", "s3"}, {"f1", "f2"}} {
		if !sp[pair[0]].overlaps(sp[pair[1]]) {
			t.Errorf("safe calls %s and %s did not overlap: %v / %v", pair[0], pair[1], sp[pair[0]], sp[pair[1]])
		}
	}
	for _, id := range []string{"s1", "s2", "s3", "f1", "f2"} {
		if sp["x"].overlaps(sp[id]) {
			t.Errorf("exclusive call overlapped %s", id)
		}
	}
	if !sp["x"].start.After(sp["s3"].end) && !sp["x"].start.Equal(sp["s3"].end) {
		t.Error("exclusive call started before the safe calls ahead of it ended")
	}
	want := []string{"end s1 ", "end s2 ", "end s3 ", "end x ", "end f1 ", "end f2 "}
	if got := obs.ends(); !reflect.DeepEqual(got, want) {
		t.Errorf("finished order %v, want %v", got, want)
	}
	if starts := obs.starts(); !reflect.DeepEqual(starts, []string{"start s1", "start s2", "start s3", "start x", "start f1", "start f2"}) {
		t.Errorf("started order %v", starts)
	}
}

func TestRunStepReportsResultsInModelOrder(t *testing.T) {
	// slow waits until fast has finished, so the bodies finish in the
	// reverse of the model's order on any machine.
	fastDone := make(chan struct{})
	slow := funcTool("slow", func(ctx context.Context, call Call) (any, error) {
		<-fastDone
		return call.ID, nil
	}, Safe())
	fast := funcTool("fast", func(ctx context.Context, call Call) (any, error) {
		close(fastDone)
		return call.ID, nil
	}, Safe())
	obs := &log{}
	NewRunner(mustRegistry(t, PresentNative, slow, fast), RunnerConfig{}).RunStep(context.Background(), []Call{
		{ID: "a", Name: "slow"}, {ID: "b", Name: "fast"}, {ID: "c", Name: "nope"}, {ID: "d", Name: "fast", Raw: "{"},
	}, obs)
	want := []string{"end a ", "end b ", "end c UNKNOWN_TOOL", "end d INVALID_ARGS"}
	if got := obs.ends(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestRunStepPoolSizeIsHonoured(t *testing.T) {
	var mu sync.Mutex
	running, peak := 0, 0
	tool := funcTool("t", func(context.Context, Call) (any, error) {
		mu.Lock()
		running++
		peak = max(peak, running)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return "", nil
	}, Safe())
	var calls []Call
	for i := range 12 {
		calls = append(calls, Call{ID: fmt.Sprint(i), Name: "t"})
	}
	NewRunner(mustRegistry(t, PresentNative, tool), RunnerConfig{MaxParallel: 3}).RunStep(context.Background(), calls, nil)
	if peak > 3 {
		t.Fatalf("peak concurrency %d > 3", peak)
	}
}

func TestRunStepCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	blocker := funcTool("block", func(ctx context.Context, _ Call) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	never := funcTool("never", func(context.Context, Call) (any, error) {
		t.Error("an unstarted call ran after cancellation")
		return nil, nil
	})
	go func() { <-started; cancel() }()
	obs := &log{}
	results := NewRunner(mustRegistry(t, PresentNative, blocker, never), RunnerConfig{}).RunStep(ctx, []Call{
		{ID: "a", Name: "block"}, {ID: "b", Name: "never"}, {ID: "c", Name: "never"},
	}, obs)
	// Starts and ends interleave freely; each stream keeps the model's order.
	if got, want := obs.starts(), []string{"start a", "start b", "start c"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("starts %v, want %v", got, want)
	}
	if got, want := obs.ends(), []string{"end a ABORTED", "end b ABORTED_BEFORE_DISPATCH", "end c ABORTED_BEFORE_DISPATCH"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ends %v, want %v", got, want)
	}
	if results[1].Content != "Error: tool call aborted before dispatch" {
		t.Fatalf("%q", results[1].Content)
	}
}
