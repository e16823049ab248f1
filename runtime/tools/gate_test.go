package tools

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"
)

// admitted reports whether the call was admitted. With wait it blocks
// until it is (no wall-clock limit: a slow machine only makes it slower);
// without, it gives the call a short moment and reports false if it is
// still queued, which can only err towards passing.
func admittedWait(ch <-chan func(), wait bool) (func(), bool) {
	if wait {
		return <-ch, true
	}
	select {
	case rel := <-ch:
		return rel, true
	case <-time.After(20 * time.Millisecond):
		return nil, false
	}
}

func admitted(ch <-chan func()) (func(), bool) { return admittedWait(ch, true) }

func notAdmitted(ch <-chan func()) bool {
	_, ok := admittedWait(ch, false)
	return !ok
}

// waitQueued blocks until n calls wait in g's queue.
func waitQueued(g *Gate, n int) {
	for {
		g.mu.Lock()
		l := len(g.queue)
		g.mu.Unlock()
		if l >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func acquireAsync(g *Gate, ctx context.Context, safe bool) <-chan func() {
	ch := make(chan func(), 1)
	go func() {
		rel, err := g.Acquire(ctx, safe)
		if err == nil {
			ch <- rel
		}
	}()
	return ch
}

func TestGateAdmitsSafeCallsUpToTheLimit(t *testing.T) {
	g := NewGate(2)
	ctx := context.Background()
	r1, _ := g.Acquire(ctx, true)
	r2, _ := g.Acquire(ctx, true)
	third := acquireAsync(g, ctx, true)
	if !notAdmitted(third) {
		t.Fatal("third safe call admitted beyond the limit")
	}
	r1()
	r3, ok := admitted(third)
	if !ok {
		t.Fatal("third safe call not admitted after a release")
	}
	r2()
	r3()
}

func TestGateRunsExclusiveCallsAlone(t *testing.T) {
	g := NewGate(10)
	ctx := context.Background()
	safe, _ := g.Acquire(ctx, true)
	excl := acquireAsync(g, ctx, false)
	if !notAdmitted(excl) {
		t.Fatal("exclusive call admitted while a safe call runs")
	}
	later := acquireAsync(g, ctx, true)
	safe()
	relX, ok := admitted(excl)
	if !ok {
		t.Fatal("exclusive call not admitted once alone")
	}
	if !notAdmitted(later) {
		t.Fatal("a later safe call overtook or joined the exclusive call")
	}
	relX()
	relL, ok := admitted(later)
	if !ok {
		t.Fatal("later call not admitted after the exclusive one")
	}
	relL()
	relL() // releasing twice is harmless
}

func TestGateStartsCallsInSubmissionOrder(t *testing.T) {
	g := NewGate(1)
	ctx := context.Background()
	first, _ := g.Acquire(ctx, true)
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rel, err := g.Acquire(ctx, i%2 == 0)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			rel()
		}()
		waitQueued(g, i+1) // goroutine i is queued before i+1 submits
	}
	first()
	wg.Wait()
	if !reflect.DeepEqual(order, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("start order %v", order)
	}
}

func TestGateCancelledWaiterLeavesTheQueue(t *testing.T) {
	g := NewGate(1)
	held, _ := g.Acquire(context.Background(), false)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := g.Acquire(ctx, false); errc <- err }()
	waitQueued(g, 1)
	next := acquireAsync(g, context.Background(), true)
	waitQueued(g, 2)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	held()
	rel, ok := admitted(next)
	if !ok {
		t.Fatal("the call behind a cancelled waiter never started")
	}
	rel()
}

func TestGateLimitBelowOneMeansOne(t *testing.T) {
	g := NewGate(0)
	r1, _ := g.Acquire(context.Background(), true)
	second := acquireAsync(g, context.Background(), true)
	if !notAdmitted(second) {
		t.Fatal("limit 0 admitted two calls")
	}
	r1()
	if r2, ok := admitted(second); ok {
		r2()
	} else {
		t.Fatal("second call never admitted")
	}
}

func TestGateTryAcquireFollowsTheRuleAndNeverOvertakes(t *testing.T) {
	t.Run("safe calls are admitted up to the limit", func(t *testing.T) {
		g := NewGate(2)
		r1, ok1 := g.TryAcquire(true)
		_, ok2 := g.TryAcquire(true)
		_, ok3 := g.TryAcquire(true)
		if !ok1 || !ok2 || ok3 {
			t.Fatalf("admitted %v %v %v, want true true false", ok1, ok2, ok3)
		}
		r1()
		if _, ok := g.TryAcquire(true); !ok {
			t.Fatal("a released slot was not reusable")
		}
	})
	t.Run("an exclusive call needs an empty gate and keeps it", func(t *testing.T) {
		g := NewGate(2)
		rs, _ := g.TryAcquire(true)
		if _, ok := g.TryAcquire(false); ok {
			t.Fatal("an exclusive call started beside a running call")
		}
		rs()
		rx, ok := g.TryAcquire(false)
		if !ok {
			t.Fatal("an exclusive call was refused by an empty gate")
		}
		if _, ok := g.TryAcquire(true); ok {
			t.Fatal("a safe call started beside an exclusive one")
		}
		rx()
		if _, ok := g.TryAcquire(true); !ok {
			t.Fatal("the gate stayed closed after the exclusive call")
		}
	})
	t.Run("a queued call is never overtaken", func(t *testing.T) {
		g := NewGate(2)
		rs, _ := g.TryAcquire(true)
		queued := acquireAsync(g, context.Background(), false)
		waitQueued(g, 1)
		if _, ok := g.TryAcquire(true); ok {
			t.Fatal("a safe call overtook the queued exclusive call")
		}
		rs()
		rx, ok := admitted(queued)
		if !ok {
			t.Fatal("the queued call was not admitted")
		}
		rx()
		if g.running != 0 || g.excl || len(g.queue) != 0 {
			t.Fatalf("gate not empty at the end: running %d excl %v queue %d", g.running, g.excl, len(g.queue))
		}
	})
}
