package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// A run_code program's calls are tool calls of their own, titled as the
// program wrote them, naming the program's call as their parent; the
// program's console lines stream into its own call.
func TestARunCodeProgramsCallsAreToolCallsOfTheirOwn(t *testing.T) {
	ws := workspace(t)
	settings := script(t,
		calls(call("prog", "run_code", map[string]any{"description": "write and read", "code": `console.log("starting");
await tools.write({file_path: "n.txt", content: "nested\n"});
const r = await tools.read({file_path: "n.txt"});
console.log("read", r.total_lines);
return "ok";`})),
		text("done"),
	)
	settings.Preset = "ptc"
	cl := &client{}
	r := start(t, newHome(t), settings, cl)
	id := r.newSession(ws)
	if resp := r.prompt(id, "go"); resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	var nested []*sdk.SessionUpdateToolCall
	var program *sdk.SessionUpdateToolCall
	completed := map[sdk.ToolCallId]bool{}
	console := false
	for _, n := range cl.take() {
		u := n.Update
		switch {
		case u.ToolCall != nil && u.ToolCall.ToolCallId == "prog":
			program = u.ToolCall
		case u.ToolCall != nil:
			nested = append(nested, u.ToolCall)
		case u.ToolCallUpdate != nil:
			if s := u.ToolCallUpdate.Status; s != nil && *s == sdk.ToolCallStatusCompleted {
				completed[u.ToolCallUpdate.ToolCallId] = true
			}
			if u.ToolCallUpdate.ToolCallId == "prog" {
				for _, c := range u.ToolCallUpdate.Content {
					if c.Content != nil && c.Content.Content.Text != nil && c.Content.Content.Text.Text != "" {
						console = true
					}
				}
			}
		}
	}
	if program == nil || program.Kind != sdk.ToolKindExecute {
		t.Fatalf("the program's call: %+v", program)
	}
	if len(nested) != 2 {
		t.Fatalf("%d nested calls: %+v", len(nested), nested)
	}
	w, rd := nested[0], nested[1]
	if w.Kind != sdk.ToolKindEdit || w.Title != `write({"file_path":"n.txt","content":"nested\n"})` || rd.Kind != sdk.ToolKindRead {
		t.Errorf("nested calls %q (%s), %q (%s)", w.Title, w.Kind, rd.Title, rd.Kind)
	}
	if len(w.Content) != 1 || w.Content[0].Diff == nil || w.Content[0].Diff.Path != filepath.Join(ws, "n.txt") || w.Content[0].Diff.NewText != "nested\n" {
		t.Errorf("the nested write's diff: %+v", w.Content)
	}
	for _, c := range nested {
		meta, _ := c.Meta["ptc"].(map[string]any)
		if meta["parentToolCallId"] != "prog" {
			t.Errorf("%s: meta %+v", c.ToolCallId, c.Meta)
		}
		if !completed[c.ToolCallId] {
			t.Errorf("%s never completed", c.ToolCallId)
		}
	}
	if !completed["prog"] || !console {
		t.Errorf("program completed %v, console shown %v", completed["prog"], console)
	}
}

func TestListAndResume(t *testing.T) {
	ws := workspace(t)
	home := newHome(t)
	r := start(t, home, script(t, text("first")), &client{})
	id := r.newSession(ws)
	r.prompt(id, "hello there")
	list, err := r.conn.ListSessions(context.Background(), sdk.ListSessionsRequest{Cwd: &ws})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].SessionId != id || list.Sessions[0].Cwd != ws || list.Sessions[0].UpdatedAt == nil {
		t.Fatalf("list %+v", list.Sessions)
	}
	if _, err := r.conn.ResumeSession(context.Background(), sdk.ResumeSessionRequest{SessionId: id, Cwd: ws}); err == nil {
		t.Error("a session open on this connection was opened again")
	}
	if _, err := r.conn.CloseSession(context.Background(), sdk.CloseSessionRequest{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	cl := &client{}
	r2 := start(t, home, script(t, text("second")), cl, session.FieldModel)
	r.stop()
	if _, err := r2.conn.ResumeSession(context.Background(), sdk.ResumeSessionRequest{SessionId: id, Cwd: ws}); err != nil {
		t.Fatal(err)
	}
	if len(cl.take()) != 0 {
		t.Error("resume replayed the session")
	}
	r2.prompt(id, "again")
	if got := texts(cl.take(), "message"); got != "second" {
		t.Fatalf("after resume: %q", got)
	}
}

// A background subagent's completion notice runs a turn of its own
// before the prompt answers, and that turn streams like the first.
func TestAPromptWaitsForItsBackgroundSubagents(t *testing.T) {
	ws := workspace(t)
	b, err := json.Marshal(map[string]any{
		"replies": []any{
			calls(call("s1", "subagent", map[string]any{"description": "helper", "prompt": "summarise the changelog", "run_in_background": true})),
			text("started it"),
			text("the helper finished"),
		},
		"agents": []any{map[string]any{"match": "summarise the changelog", "replies": []any{map[string]any{"text": "three releases", "delay_ms": 20}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	settings := script(t)
	settings.Model = "script:" + path
	cl := &client{}
	r := start(t, newHome(t), settings, cl)
	id := r.newSession(ws)
	if resp := r.prompt(id, "summarise it in the background"); resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	if got := texts(cl.take(), "message"); got != "started itthe helper finished" {
		t.Fatalf("messages %q", got)
	}
}

// The workspace's custom commands are offered to the editor, and a
// prompt naming one runs its prompt.
func TestCustomCommandsAreOfferedAndExpanded(t *testing.T) {
	ws := workspace(t)
	if err := os.MkdirAll(filepath.Join(ws, ".ptc", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\ndescription: Greet someone\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS.\n"
	if err := os.WriteFile(filepath.Join(ws, ".ptc", "commands", "greet.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cl := &client{}
	r := start(t, newHome(t), script(t, text("hello Bob")), cl)
	id := r.newSession(ws)
	r.prompt(id, "/greet Bob")
	var offered []sdk.AvailableCommand
	for _, n := range cl.take() {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			offered = u.AvailableCommands
		}
	}
	if len(offered) != 1 || offered[0].Name != "greet" || offered[0].Description != "Greet someone" ||
		offered[0].Input == nil || offered[0].Input.Unstructured == nil || offered[0].Input.Unstructured.Hint != "NAME" {
		t.Fatalf("offered %+v", offered)
	}
	ld := load(t, r, string(id))
	var prompts []string
	for _, e := range sessiontest.OfType(ld.Events, session.TypeUserMessage) {
		m := sessiontest.Decode[session.UserMessage](t, e)
		if m.Source.Kind == "user" {
			prompts = append(prompts, m.Content[0].Text)
		}
	}
	if len(prompts) != 1 || !strings.Contains(prompts[0], "Say hello to Bob.") {
		t.Fatalf("the model got %q", prompts)
	}
}
