package serve

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

func guardedCall(text string) map[string]any {
	return map[string]any{"tool_calls": []map[string]any{{"name": "guarded", "arguments": map[string]any{"text": text}}}}
}

func decode[T any](t *testing.T, fr frame) T {
	t.Helper()
	var e session.Event
	if err := json.Unmarshal([]byte(fr.data), &e); err != nil {
		t.Fatalf("frame %d: %v", fr.id, err)
	}
	var v T
	if err := json.Unmarshal(e.Data, &v); err != nil {
		t.Fatalf("frame %d data: %v", fr.id, err)
	}
	return v
}

func TestAPromptStreamsToTurnEndAndAStreamResumesExactly(t *testing.T) {
	f := newFixture(t)
	rec := f.create(f.script(map[string]any{"reasoning": "think", "text": "Hello from the script."}))
	if rec.ID == "" || rec.Status != session.StatusNew || !rec.Served || rec.Settings.Workspace != f.ws {
		t.Fatalf("created %+v", rec)
	}
	var acc map[string]bool
	f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "hi"}, &acc)
	all := f.stream(rec.ID, "", until(session.TypeTurnEnd))
	for i, fr := range all {
		if fr.id != int64(i) {
			t.Fatalf("frame %d has id %d: the stream must start at 0 with no gaps", i, fr.id)
		}
		var e session.Event
		if err := json.Unmarshal([]byte(fr.data), &e); err != nil || e.Seq != fr.id || e.Type != fr.event {
			t.Fatalf("frame %d: data %s does not match id %d / event %s", i, fr.data, fr.id, fr.event)
		}
	}
	end := decode[session.TurnEnd](t, all[len(all)-1])
	if end.Reason != session.ReasonCompleted {
		t.Fatalf("turn ended %+v", end)
	}
	t.Run("the stream's data is the event as ptc session export writes it", func(t *testing.T) {
		evs := f.srv.served(rec.ID).sess.Events()
		for i, fr := range all {
			want, _ := json.Marshal(evs[i])
			if fr.data != string(want) {
				t.Fatalf("frame %d:\n got %s\nwant %s", i, fr.data, want)
			}
		}
	})
	for _, n := range []int{0, 3, len(all) - 2} {
		t.Run("Last-Event-ID "+strconv.Itoa(n)+" resumes at the next event", func(t *testing.T) {
			got := f.stream(rec.ID, strconv.Itoa(n), until(session.TypeTurnEnd))
			if len(got) == 0 || got[0].id != int64(n+1) || got[len(got)-1].id != all[len(all)-1].id {
				t.Fatalf("resumed at %v", got)
			}
		})
	}
	t.Run("?after= resumes too", func(t *testing.T) {
		code, body := f.do("GET", "/v1/sessions/"+rec.ID+"/events?after=x", nil)
		if code != 400 {
			t.Fatalf("a bad after = %d %s", code, body)
		}
	})
	t.Run("the record says how the turn ended", func(t *testing.T) {
		var r Record
		f.must(200, "GET", "/v1/sessions/"+rec.ID[:12], nil, &r)
		if r.ID != rec.ID || r.Status != session.ReasonCompleted || r.Title != "hi" || r.Turns != 1 || r.Running {
			t.Fatalf("record %+v", r)
		}
		var list []Record
		f.must(200, "GET", "/v1/sessions", nil, &list)
		if len(list) != 1 || list[0].ID != rec.ID {
			t.Fatalf("list %+v", list)
		}
	})
}

func TestAnApprovalIsAnsweredOverTheAPIAndTheFirstAnswerWins(t *testing.T) {
	f := newFixture(t)
	rec := f.create(f.script(guardedCall("one"), map[string]any{"text": "Done."}))
	f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "go"}, nil)
	var r Record
	waitFor(t, "the pending approval", func() bool {
		f.must(200, "GET", "/v1/sessions/"+rec.ID, nil, &r)
		return len(r.Pending) == 1
	})
	p := r.Pending[0]
	if p.Kind != "approval" || p.Tool != "guarded" || p.Stale || r.Status != StatusWaiting || p.Title != "guarded needs your approval" {
		t.Fatalf("pending %+v (status %s)", p, r.Status)
	}
	path := "/v1/sessions/" + rec.ID + "/pending/" + p.ID
	t.Run("a bad answer is refused and the request stays", func(t *testing.T) {
		for _, body := range []map[string]any{{"decision": "maybe"}, {"answer": "yes"}, {}, {"decision": "once", "answer": "x"}} {
			if code, out := f.do("POST", path, body); code != 400 {
				t.Fatalf("%v = %d %s", body, code, out)
			}
		}
	})
	// Two clients answer at once: exactly one wins, the other is told.
	var wg sync.WaitGroup
	codes := make([]int, 2)
	bodies := make([][]byte, 2)
	for i, d := range []string{"once", "deny"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], bodies[i] = f.do("POST", path, map[string]any{"decision": d})
		}()
	}
	wg.Wait()
	wins, loses := 0, 0
	var lost apiError
	for i := range codes {
		switch codes[i] {
		case 200:
			wins++
		case 409:
			loses++
			json.Unmarshal(bodies[i], &lost)
		}
	}
	if wins != 1 || loses != 1 || lost.Error != "already_answered" || (lost.Answer != "allow-once" && lost.Answer != "deny") {
		t.Fatalf("codes %v, bodies %s / %s", codes, bodies[0], bodies[1])
	}
	evs := f.stream(rec.ID, "", until(session.TypeTurnEnd))
	var decided session.ApprovalDecided
	for _, fr := range evs {
		if fr.event == session.TypeApprovalDecided {
			decided = decode[session.ApprovalDecided](t, fr)
		}
	}
	if decided.By != "user" || decided.Decision != lost.Answer {
		t.Fatalf("decided %+v", decided)
	}
	ran, _ := os.ReadFile(filepath.Join(f.ws, "guarded.txt"))
	if (decided.Decision == "allow-once") != (string(ran) == "one\n") {
		t.Fatalf("decision %s but the tool wrote %q", decided.Decision, ran)
	}
	t.Run("an unknown request is 404", func(t *testing.T) {
		if code, _ := f.do("POST", "/v1/sessions/"+rec.ID+"/pending/nope", map[string]any{"decision": "once"}); code != 404 {
			t.Fatalf("= %d", code)
		}
	})
}

func TestPromptsPostedDuringATurnAreQueued(t *testing.T) {
	f := newFixture(t)
	rec := f.create(f.script(guardedCall("first"), map[string]any{"text": "one"}, map[string]any{"text": "two"}))
	f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "first"}, nil)
	var r Record
	waitFor(t, "the approval", func() bool {
		f.must(200, "GET", "/v1/sessions/"+rec.ID, nil, &r)
		return len(r.Pending) == 1
	})
	var q map[string]bool
	f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "second"}, &q)
	if !q["queued"] {
		t.Fatalf("a prompt during a turn was not queued: %v", q)
	}
	f.must(200, "GET", "/v1/sessions/"+rec.ID, nil, &r)
	if r.Queued != 1 || !r.Running {
		t.Fatalf("record %+v", r)
	}
	if code, _ := f.do("POST", "/v1/sessions/"+rec.ID+"/compact", nil); code != 409 {
		t.Fatalf("compact during a turn = %d, want 409", code)
	}
	f.must(200, "POST", "/v1/sessions/"+rec.ID+"/pending/"+r.Pending[0].ID, map[string]any{"decision": "session"}, nil)
	turns := 0
	f.stream(rec.ID, "", func(fr frame) bool {
		if fr.event == session.TypeTurnEnd {
			turns++
		}
		return turns == 2
	})
	waitFor(t, "the runner to finish", func() bool {
		f.must(200, "GET", "/v1/sessions/"+rec.ID, nil, &r)
		return !r.Running
	})
	if r.Turns != 2 || r.Queued != 0 {
		t.Fatalf("record %+v", r)
	}
}

func TestCancelSettingsAndDelete(t *testing.T) {
	f := newFixture(t)
	rec := f.create(f.script(guardedCall("x"), map[string]any{"text": "after"}))
	f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "go"}, nil)
	var r Record
	waitFor(t, "the approval", func() bool {
		f.must(200, "GET", "/v1/sessions/"+rec.ID, nil, &r)
		return len(r.Pending) == 1
	})
	if code, _ := f.do("POST", "/v1/sessions/"+rec.ID+"/settings", map[string]any{"sandbox": "read-only"}); code != 409 {
		t.Fatalf("a settings change during a turn = %d, want 409", code)
	}
	var c struct{ Cancelled bool }
	f.must(200, "POST", "/v1/sessions/"+rec.ID+"/cancel", nil, &c)
	if !c.Cancelled {
		t.Fatal("cancel found no turn")
	}
	evs := f.stream(rec.ID, "", until(session.TypeTurnEnd))
	if end := decode[session.TurnEnd](t, evs[len(evs)-1]); end.Reason != session.ReasonAborted {
		t.Fatalf("turn end %+v", end)
	}
	waitFor(t, "the runner to stop", func() bool {
		f.must(200, "GET", "/v1/sessions/"+rec.ID, nil, &r)
		return !r.Running
	})
	if len(r.Pending) != 0 {
		t.Fatalf("a cancelled turn left %+v pending", r.Pending)
	}
	t.Run("settings change between turns", func(t *testing.T) {
		f.must(200, "POST", "/v1/sessions/"+rec.ID+"/settings", map[string]any{"sandbox": "read-only", "approval": "never"}, &r)
		if r.Settings.Sandbox != "read-only" || r.Settings.Approval != "never" {
			t.Fatalf("settings %+v", r.Settings)
		}
		if code, out := f.do("POST", "/v1/sessions/"+rec.ID+"/settings", map[string]any{"sandbox": "wide-open"}); code != 400 || !strings.Contains(string(out), "wide-open") {
			t.Fatalf("a bad mode = %d %s", code, out)
		}
		if code, _ := f.do("POST", "/v1/sessions/"+rec.ID+"/settings", map[string]any{"sandboxx": "x"}); code != 400 {
			t.Fatalf("an unknown field = %d", code)
		}
	})
	t.Run("bad create bodies say what is wrong", func(t *testing.T) {
		for body, want := range map[string]int{
			`{"workspace":"relative"}`: 400, `{"workspace":"/no/such/dir","model":"script:/x"}`: 422,
			`{"workspace":"` + f.ws + `","preset":"nope"}`: 422, `{"workspace":"` + f.ws + `","sandbox":"open"}`: 422,
		} {
			var v map[string]any
			json.Unmarshal([]byte(body), &v)
			if code, out := f.do("POST", "/v1/sessions", v); code != want {
				t.Errorf("%s = %d %s, want %d", body, code, out, want)
			}
		}
	})
	t.Run("delete ends its streams and the session", func(t *testing.T) {
		// The stream is open (its headers came, so its hub is watched)
		// before the delete: opened from a goroutine it raced the delete,
		// got a 404, and its Fatal left this test waiting forever.
		body := f.openEvents(rec.ID, strconv.Itoa(len(evs)-1))
		done := make(chan []frame)
		go func() { done <- readFrames(t, body, until(endEvent)) }()
		f.must(http.StatusNoContent, "DELETE", "/v1/sessions/"+rec.ID, nil, nil)
		<-done // readFrames returns only once it read the end frame
		if code, _ := f.do("GET", "/v1/sessions/"+rec.ID, nil); code != 404 {
			t.Fatalf("a deleted session = %d", code)
		}
	})
}

func TestTheDiffOfAnEdit(t *testing.T) {
	evs := []session.Event{
		{Seq: 0, Type: session.TypeToolCall, Data: json.RawMessage(`{"callId":"c1","name":"edit","arguments":"{\"file_path\":\"a.go\",\"old_string\":\"a\\nb\\n\",\"new_string\":\"a\\nc\\n\"}"}`)},
		{Seq: 1, Type: session.TypePtcDispatchStart, Data: json.RawMessage(`{"subCallId":"r:ptc:0","name":"write","arguments":"{\"file_path\":\"n.txt\",\"content\":\"x\\n\"}"}`)},
		{Seq: 2, Type: session.TypeToolCall, Data: json.RawMessage(`{"callId":"c3","name":"bash","arguments":"{}"}`)},
	}
	d, ok := diffOf(evs, "c1")
	if !ok || d.Path != "a.go" || len(d.Hunks) != 1 {
		t.Fatalf("edit diff %+v", d)
	}
	var got []string
	for _, l := range d.Hunks[0].Lines {
		got = append(got, l.Kind+l.Text)
	}
	if strings.Join(got, "|") != " a|-b|+c" {
		t.Fatalf("lines %q", got)
	}
	if d, ok := diffOf(evs, "r:ptc:0"); !ok || !d.Whole || d.Hunks[0].Lines[0].Kind != "+" {
		t.Fatalf("write diff %+v", d)
	}
	if _, ok := diffOf(evs, "c3"); ok {
		t.Fatal("bash has a diff")
	}
}
