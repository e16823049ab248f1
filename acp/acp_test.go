package acp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// editTurn is a turn that writes a file, updates the todo list, edits the
// file and answers.
func editTurn() []any {
	return []any{
		map[string]any{"reasoning": "plan the change", "text": "I will edit.", "tool_calls": []any{
			call("c1", "write", map[string]any{"file_path": "a.txt", "content": "hello\n"}),
			call("c2", "todo_write", map[string]any{"todos": []any{
				map[string]any{"content": "write a.txt", "status": "completed"},
				map[string]any{"content": "check it", "status": "in_progress", "priority": "high"},
			}}),
		}},
		calls(call("c3", "edit", map[string]any{"file_path": "a.txt", "old_string": "hello", "new_string": "bye"})),
		text("Done."),
	}
}

func TestAPromptStreamsChunksToolCallsADiffAPlanAndTheStopReason(t *testing.T) {
	ws := workspace(t)
	cl := &client{}
	r := start(t, newHome(t), script(t, editTurn()...), cl)
	id := r.newSession(ws)
	resp := r.prompt(id, "change a.txt")
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	if resp.Usage == nil || resp.Usage.TotalTokens == 0 {
		t.Errorf("usage %+v", resp.Usage)
	}
	ns := cl.take()
	if got := texts(ns, "message"); got != "I will edit.Done." {
		t.Errorf("message chunks %q", got)
	}
	if got := texts(ns, "thought"); got != "plan the change" {
		t.Errorf("thought chunks %q", got)
	}
	var edit *sdk.SessionUpdateToolCall
	var editDone, planSeen bool
	for _, n := range ns {
		u := n.Update
		if n.SessionId != id {
			t.Fatalf("an update for session %q", n.SessionId)
		}
		switch {
		case u.ToolCall != nil && u.ToolCall.ToolCallId == "c3":
			edit = u.ToolCall
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.ToolCallId == "c3":
			editDone = u.ToolCallUpdate.Status != nil && *u.ToolCallUpdate.Status == sdk.ToolCallStatusCompleted
		case u.Plan != nil:
			planSeen = true
			want := []sdk.PlanEntry{
				{Content: "write a.txt", Status: sdk.PlanEntryStatusCompleted, Priority: sdk.PlanEntryPriorityMedium},
				{Content: "check it", Status: sdk.PlanEntryStatusInProgress, Priority: sdk.PlanEntryPriorityHigh},
			}
			if !slices.EqualFunc(u.Plan.Entries, want, func(a, b sdk.PlanEntry) bool {
				return a.Content == b.Content && a.Status == b.Status && a.Priority == b.Priority
			}) {
				t.Errorf("plan %+v", u.Plan.Entries)
			}
		}
	}
	if edit == nil || edit.Kind != sdk.ToolKindEdit || edit.Title != "edit: a.txt" {
		t.Fatalf("the edit's tool_call: %+v", edit)
	}
	path := filepath.Join(ws, "a.txt")
	if len(edit.Locations) != 1 || edit.Locations[0].Path != path {
		t.Errorf("locations %+v", edit.Locations)
	}
	if len(edit.Content) != 1 || edit.Content[0].Diff == nil {
		t.Fatalf("the edit's content: %+v", edit.Content)
	}
	d := edit.Content[0].Diff
	if d.Path != path || d.OldText == nil || *d.OldText != "hello" || d.NewText != "bye" {
		t.Errorf("diff %+v", d)
	}
	if !editDone || !planSeen {
		t.Errorf("edit completed %v, plan %v", editDone, planSeen)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "bye\n" {
		t.Errorf("a.txt: %q %v", b, err)
	}
}

// escalate is a bash call asking to run on the host: an approval.
func escalate(id, command string) map[string]any {
	return call(id, "bash", map[string]any{"command": command, "description": "touch the host",
		"sandbox_permissions": "danger-full-access", "justification": "needs the host"})
}

func TestARejectedApprovalFailsTheCallForTheModel(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer func(sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	}{
		{"the client rejects", nil},
		{"the client cannot answer", func(sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
			return sdk.RequestPermissionResponse{}, errors.New("no UI")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := workspace(t)
			cl := &client{answer: c.answer}
			r := start(t, newHome(t), script(t, calls(escalate("b1", "touch "+filepath.Join(ws, "host"))), text("denied, ok")), cl)
			id := r.newSession(ws)
			if resp := r.prompt(id, "go"); resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("stop reason %q", resp.StopReason)
			}
			if len(cl.asked) != 1 {
				t.Fatalf("asked %d times", len(cl.asked))
			}
			p := cl.asked[0]
			var ks []sdk.PermissionOptionKind
			for _, o := range p.Options {
				ks = append(ks, o.Kind)
			}
			if p.SessionId != id || p.ToolCall.ToolCallId != "b1" || !slices.Equal(ks, []sdk.PermissionOptionKind{
				sdk.PermissionOptionKindAllowOnce, sdk.PermissionOptionKindAllowAlways, sdk.PermissionOptionKindRejectOnce}) {
				t.Fatalf("request %+v", p)
			}
			var failed bool
			for _, n := range cl.take() {
				if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == "b1" {
					failed = u.Status != nil && *u.Status == sdk.ToolCallStatusFailed
				}
			}
			if !failed {
				t.Error("the call's update is not failed")
			}
			if _, err := os.Stat(filepath.Join(ws, "host")); err == nil {
				t.Error("the rejected command ran")
			}
			ld := load(t, r, string(id))
			res := sessiontest.OfType(ld.Events, session.TypeToolResult)
			if len(res) != 1 {
				t.Fatalf("%d results", len(res))
			}
			if d := sessiontest.Decode[session.ToolResult](t, res[0]); d.Error == nil || d.Error.Code != tools.CodeDenied {
				t.Fatalf("the model got %+v", d)
			}
		})
	}
}

// load stops the rig (closing its sessions) and reads session id from
// its home.
func load(t *testing.T, r *rig, id string) session.Loaded {
	t.Helper()
	r.stop()
	ld, err := r.home.Catalog().Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ld
}

func TestLoadReplaysAFinishedSessionInOrderThenContinuesIt(t *testing.T) {
	ws := workspace(t)
	home := newHome(t)
	settings := script(t, append(editTurn(), text("second turn"))...)
	cl := &client{}
	r := start(t, home, settings, cl)
	id := r.newSession(ws)
	r.prompt(id, "change a.txt")
	live := cl.take()
	r.stop()

	again := &client{}
	r2 := start(t, home, script(t, text("second turn")), again, session.FieldModel)
	if _, err := r2.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: id, Cwd: ws, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	replayed := again.take()
	if got := texts(replayed, "user"); got != "change a.txt" {
		t.Errorf("the user's message %q", got)
	}
	if texts(replayed, "message") != texts(live, "message") || texts(replayed, "thought") != texts(live, "thought") {
		t.Errorf("replayed text %q / %q, live %q / %q", texts(replayed, "message"), texts(replayed, "thought"), texts(live, "message"), texts(live, "thought"))
	}
	// The replay is the live turn, in order: the user's message first,
	// the mode and the commands last, no usage meter.
	want := append([]string{"user"}, slices.DeleteFunc(compact(kinds(live)), func(k string) bool { return k == "usage" || k == "commands" })...)
	want = append(want, "mode default", "commands")
	if got := compact(kinds(replayed)); !slices.Equal(got, want) {
		t.Fatalf("replay\n got %q\nwant %q", got, want)
	}
	if resp := r2.prompt(id, "more"); resp.StopReason != sdk.StopReasonEndTurn || texts(again.take(), "message") != "second turn" {
		t.Fatalf("the loaded session did not continue: %+v", resp)
	}
}

func TestCancelDuringALongBashCallEndsTheTurnCancelled(t *testing.T) {
	ws := workspace(t)
	started := make(chan struct{})
	cl := &client{}
	cl.onUpdate = func(n sdk.SessionNotification) {
		if n.Update.ToolCall != nil && n.Update.ToolCall.ToolCallId == "long" {
			close(started)
		}
	}
	r := start(t, newHome(t), script(t, calls(call("long", "bash", map[string]any{"command": "sleep 600", "description": "wait"})), text("never")), cl)
	id := r.newSession(ws)
	go func() {
		<-started
		if err := r.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: id}); err != nil {
			t.Error(err)
		}
	}()
	resp := r.prompt(id, "wait")
	if resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	var status sdk.ToolCallStatus
	for _, n := range cl.take() {
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == "long" && u.Status != nil {
			status = *u.Status
		}
	}
	if status != sdk.ToolCallStatusFailed {
		t.Errorf("the bash call ended %q", status)
	}
}

func TestSetModeSwitchesPlanMode(t *testing.T) {
	ws := workspace(t)
	cl := &client{}
	r := start(t, newHome(t), script(t, text("planning")), cl)
	resp, err := r.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != "default" || len(resp.Modes.AvailableModes) != 2 {
		t.Fatalf("modes %+v", resp.Modes)
	}
	if _, err := r.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: resp.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: resp.SessionId, ModeId: "yolo"}); err == nil {
		t.Error("an unknown mode was taken")
	}
	r.prompt(resp.SessionId, "plan it")
	if ks := kinds(cl.take()); !slices.Contains(ks, "mode plan") {
		t.Fatalf("no mode update: %q", ks)
	}
	ld := load(t, r, string(resp.SessionId))
	if pm := sessiontest.OfType(ld.Events, session.TypePlanMode); len(pm) == 0 || !strings.Contains(string(pm[len(pm)-1].Data), `"active":true`) {
		t.Fatalf("plan mode not logged: %+v", pm)
	}
}

func TestBadRequestsGetErrors(t *testing.T) {
	r := start(t, newHome(t), script(t, text("unused")), &client{})
	ctx := context.Background()
	if _, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "relative", McpServers: []sdk.McpServer{}}); err == nil {
		t.Error("a relative cwd was taken")
	}
	if _, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: "nope", Prompt: []sdk.ContentBlock{sdk.TextBlock("x")}}); err == nil {
		t.Error("a prompt to no session was taken")
	}
	if _, err := r.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "20200101-000000-000000", Cwd: "/", McpServers: []sdk.McpServer{}}); err == nil {
		t.Error("an unknown session loaded")
	}
	id := r.newSession(workspace(t))
	if _, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.ImageBlock("AAAA", "image/png")}}); err == nil {
		t.Error("an image prompt was taken")
	}
}
