package natsstore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
)

// raceAppends is how many events each writer process tries to append.
const raceAppends = 100

// TestTwoProcessesAppendingToOneSession runs two writer processes (this
// test binary again) against a listening server: both read the session's
// end, wait at a barrier, then race to append raceAppends events each.
// Every seq must be won by exactly one of them, the loser must have been
// told so with ErrConflict naming the session, and the log must hold
// exactly what the winners reported, in order.
func TestTwoProcessesAppendingToOneSession(t *testing.T) {
	ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: t.TempDir(), Host: "127.0.0.1", Port: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	s := openStore(t, nc)
	ctx := context.Background()
	must(t, s.Create(ctx, session.Header{ID: "shared", CreatedAt: 1}))

	barrier := filepath.Join(t.TempDir(), "go")
	var outs [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRaceWriter$")
		cmd.Env = append(os.Environ(), "PTC_RACE_URL="+ns.ClientURL(), "PTC_RACE_WRITER="+strconv.Itoa(i), "PTC_RACE_BARRIER="+barrier)
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		must(t, cmd.Start())
		cmds[i] = cmd
	}
	time.Sleep(500 * time.Millisecond) // both have read the session's end
	must(t, os.WriteFile(barrier, nil, 0o600))
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i, err, outs[i].String())
		}
	}
	won := map[int64]string{}
	conflicts := 0
	for i := range outs {
		sc := bufio.NewScanner(&outs[i])
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 2 {
				continue
			}
			seq, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "won":
				if w, dup := won[seq]; dup {
					t.Fatalf("seq %d won by writer %s and writer %d", seq, w, i)
				}
				won[seq] = strconv.Itoa(i)
			case "conflict":
				conflicts++
			}
		}
	}
	if conflicts == 0 {
		t.Fatal("the loser of the first seq reported no conflict")
	}
	got, err := s.Load(ctx, "shared")
	must(t, err)
	if len(got) != 2*raceAppends || len(won) != len(got) {
		t.Fatalf("the log holds %d events, the writers won %d, want %d", len(got), len(won), 2*raceAppends)
	}
	for i, e := range got {
		var d struct{ Writer string }
		if e.Seq != int64(i) || json.Unmarshal(e.Data, &d) != nil || d.Writer != won[e.Seq] {
			t.Fatalf("event %d is %+v, but seq %d was won by writer %s", i, e, e.Seq, won[e.Seq])
		}
	}
	t.Logf("%d conflicts over %d appends", conflicts, len(got))
}

// TestRaceWriter is one writer of TestTwoProcessesAppendingToOneSession
// (it runs only as its child process).
func TestRaceWriter(t *testing.T) {
	url := os.Getenv("PTC_RACE_URL")
	if url == "" {
		t.Skip("a child of TestTwoProcessesAppendingToOneSession")
	}
	nc, err := nats.Connect(url)
	must(t, err)
	defer nc.Close()
	s := openStore(t, nc)
	ctx := context.Background()
	me := os.Getenv("PTC_RACE_WRITER")
	// Read the end first, so both writers start from seq 0.
	evs, err := s.Load(ctx, "shared")
	must(t, err)
	next := int64(len(evs))
	for {
		if _, err := os.Stat(os.Getenv("PTC_RACE_BARRIER")); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for n := 0; n < raceAppends; {
		e := session.Event{Seq: next, Type: "x-race", Time: next, Data: json.RawMessage(fmt.Sprintf(`{"writer":%q}`, me))}
		err := s.Append(ctx, "shared", []session.Event{e}, true)
		switch {
		case err == nil:
			fmt.Printf("won %d\n", next)
			next++
			n++
		case errors.Is(err, session.ErrConflict) && strings.Contains(err.Error(), "session shared"):
			fmt.Printf("conflict %d\n", next)
			// The store learnt the new end: continue from there.
			evs, lerr := s.Load(ctx, "shared")
			must(t, lerr)
			next = int64(len(evs))
		default:
			t.Fatalf("append %d: %v", next, err)
		}
	}
}
