package live_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/live"
)

// source is a session log with subscribers, as harness.Session is.
type source struct {
	log  *session.Log
	mu   sync.Mutex
	subs map[int]func(session.Event)
	n    int
}

func newSource(t *testing.T) *source {
	s := &source{subs: map[int]func(session.Event){}}
	log, err := session.Create(context.Background(), session.NewMemStore(), session.Header{ID: "s1"}, session.LogOptions{OnEvent: s.publish})
	if err != nil {
		t.Fatal(err)
	}
	s.log = log
	return s
}

func (s *source) publish(e session.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, fn := range s.subs {
		fn(e)
	}
}

func (s *source) Header() session.Header  { return s.log.Header() }
func (s *source) Events() []session.Event { return s.log.Events() }
func (s *source) Subscribe(fn func(session.Event)) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.n
	s.n++
	s.subs[id] = fn
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

func (s *source) add(t *testing.T, typ string, data any) {
	t.Helper()
	if _, err := s.log.Append(context.Background(), typ, data); err != nil {
		t.Fatal(err)
	}
}

func serve(t *testing.T, dir string, src live.Source) *live.Server {
	t.Helper()
	srv, err := live.Serve(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func TestShowAndFollow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := newSource(t)
	src.add(t, session.TypeTurnStart, session.TurnStart{Turn: 1})
	src.add(t, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks("hi")})
	srv := serve(t, dir, src)

	t.Run("show answers the header and every event so far", func(t *testing.T) {
		st, events, err := live.Show(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Header.ID != "s1" || st.PID != os.Getpid() || !st.Running || len(events) != 2 {
			t.Fatalf("stream %+v, %d events", st, len(events))
		}
	})
	t.Run("follow until the turn ends gets old and new events once each, in order", func(t *testing.T) {
		got := make(chan []int64, 1)
		go func() {
			var seqs []int64
			end, err := live.Follow(ctx, dir, 0, live.UntilTurn, nil, func(e session.Event) error {
				seqs = append(seqs, e.Seq)
				return nil
			})
			if err != nil || end != live.EndTurn {
				t.Errorf("end %q, err %v", end, err)
			}
			got <- seqs
		}()
		time.Sleep(50 * time.Millisecond)
		for range 100 {
			src.add(t, session.TypeAssistantChunk, session.AssistantChunk{Turn: 1})
		}
		src.add(t, session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: "completed"})
		src.add(t, session.TypeTurnStart, session.TurnStart{Turn: 2})
		seqs := <-got
		if len(seqs) != 103 {
			t.Fatalf("%d events", len(seqs))
		}
		for i, s := range seqs {
			if s != int64(i) {
				t.Fatalf("seq %d at %d", s, i)
			}
		}
	})
	t.Run("follow of the whole session ends when the owner closes it", func(t *testing.T) {
		done := make(chan string, 1)
		n := 0
		go func() {
			end, _ := live.Follow(ctx, dir, 100, live.UntilSession, nil, func(session.Event) error { n++; return nil })
			done <- end
		}()
		time.Sleep(50 * time.Millisecond)
		src.add(t, session.TypeTurnEnd, session.TurnEnd{Turn: 2, Reason: "completed"})
		time.Sleep(20 * time.Millisecond)
		srv.Close()
		if end := <-done; end != live.EndClosed || n != 5 {
			t.Fatalf("end %q after %d events, want closed after 5", end, n)
		}
		if _, err := os.Stat(filepath.Join(dir, session.SocketName)); !os.IsNotExist(err) {
			t.Fatalf("socket left behind: %v", err)
		}
		if _, _, err := live.Show(ctx, dir); err == nil {
			t.Fatal("show of a closed session succeeded")
		}
	})
}

func TestAFollowerThatCannotKeepUpIsCutOffNotTheSession(t *testing.T) {
	dir := t.TempDir()
	src := newSource(t)
	serve(t, dir, src)
	c, err := net.Dial("unix", filepath.Join(dir, session.SocketName))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	json.NewEncoder(c).Encode(map[string]any{"op": "follow", "until": "session"})
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	big := strings.Repeat("x", 4000)
	for range 30000 {
		src.add(t, session.TypeAssistantChunk, session.AssistantChunk{Chunk: chunkText(big)})
	}
	if len(src.Events()) != 30000 {
		t.Fatal("appends were lost")
	}
	t.Logf("30000 appends with a stalled follower took %v", time.Since(start))
	dec := json.NewDecoder(c)
	var last struct {
		Event *session.Event `json:"event"`
		End   string         `json:"end"`
	}
	next := int64(0)
	for {
		last.Event, last.End = nil, ""
		if err := dec.Decode(&last); err != nil {
			t.Fatalf("stream broke before its end line: %v", err)
		}
		if last.Event != nil {
			if last.Event.Seq != next {
				t.Fatalf("seq %d, want %d", last.Event.Seq, next)
			}
			next++
		}
		if last.End != "" {
			break
		}
	}
	if last.End != live.EndLagged {
		t.Fatalf("end %q, want lagged", last.End)
	}
}

func TestHostileClientsChangeNothing(t *testing.T) {
	dir := t.TempDir()
	src := newSource(t)
	src.add(t, session.TypeTurnStart, session.TurnStart{Turn: 1})
	serve(t, dir, src)
	for _, req := range []string{"garbage\n", `{"op":"append","event":{}}` + "\n", strings.Repeat("a", 1<<20), "\n"} {
		c, err := net.Dial("unix", filepath.Join(dir, session.SocketName))
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(req))
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, 1)
		c.Read(buf)
		c.Close()
	}
	if len(src.Events()) != 1 {
		t.Fatalf("the session has %d events", len(src.Events()))
	}
	if _, events, err := live.Show(context.Background(), dir); err != nil || len(events) != 1 {
		t.Fatalf("the server stopped answering: %v", err)
	}
}

func TestAVeryDeepSessionDirectoryIsStillServed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	src := newSource(t)
	serve(t, dir, src)
	if _, _, err := live.Show(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
}

func chunkText(s string) llm.Chunk { return llm.Chunk{Kind: llm.ChunkText, Text: s} }

func TestClientsDoNotHoldTheOwnerUp(t *testing.T) {
	dir := t.TempDir()
	src := newSource(t)
	src.add(t, session.TypeTurnStart, session.TurnStart{Turn: 1})
	srv, err := live.Serve(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	// Every client below stays connected until Close has returned: a
	// Close that waited for any of them would never return.
	var clients []net.Conn
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("unix", filepath.Join(dir, session.SocketName))
		if err != nil {
			return nil
		}
		clients = append(clients, c)
		return c
	}
	// A follower that never reads while the session writes far more than
	// a socket buffers.
	if c := dial(); c != nil {
		c.Write([]byte(`{"op":"follow","until":"session"}` + "\n"))
	}
	big := strings.Repeat("x", 4000)
	for i := 0; i < 500; i++ {
		src.add(t, session.TypeAssistantChunk, map[string]any{"turn": 1, "step": 1, "attempt": 1, "chunk": chunkText(big)})
	}
	// Far more clients than a session serves, none sending anything.
	for i := 0; i < 4*live.MaxClients; i++ {
		if dial() == nil {
			break // refused: the listen backlog is full
		}
	}
	// A real client is still served once the idle ones are dropped.
	served := false
	for try := 0; try < 100 && !served; try++ {
		_, events, err := live.Show(context.Background(), dir)
		served = err == nil && len(events) == 501
		if !served {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if !served {
		t.Fatal("a real client was never served among the idle ones")
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
}
