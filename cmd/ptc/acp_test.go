package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// acpScript writes a scripted model of replies and returns its path; it
// answers every compaction with a short summary.
func acpScript(t *testing.T, replies ...any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"replies": replies, "summary": map[string]any{"text": "<summary>earlier prompts were answered</summary>"}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func acpCall(id, name string, args map[string]any) map[string]any {
	return map[string]any{"tool_calls": []any{map[string]any{"id": id, "name": name, "arguments": args}}}
}

// The SDK's own example client (github.com/coder/acp-go-sdk/example/client,
// nobody's on this project) drives the built ptc acp: a prompt streams the
// answer, the tool calls and the plan; the approval it puts to the person
// at the client's stdin is rejected there ("3": Reject), and the call fails
// for the model.
func TestAcpDrivenByTheSDKsExampleClient(t *testing.T) {
	c := newCLI(t)
	bin := filepath.Join(t.TempDir(), "acp-example-client")
	build := exec.Command("go", "build", "-o", bin, "github.com/coder/acp-go-sdk/example/client")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the SDK's example client: %v\n%s", err, out)
	}
	ws := t.TempDir()
	host := filepath.Join(ws, "host")
	model := acpScript(t,
		map[string]any{"text": "Editing now.", "tool_calls": []any{
			map[string]any{"id": "c1", "name": "write", "arguments": map[string]any{"file_path": "a.txt", "content": "hello\n"}},
			map[string]any{"id": "c2", "name": "todo_write", "arguments": map[string]any{"todos": []any{map[string]any{"content": "write a.txt", "status": "completed"}}}},
		}},
		acpCall("c3", "edit", map[string]any{"file_path": "a.txt", "old_string": "hello", "new_string": "bye"}),
		acpCall("b1", "bash", map[string]any{"command": "touch " + host, "description": "touch the host",
			"sandbox_permissions": "danger-full-access", "justification": "needs the host"}),
		map[string]any{"text": "All done."},
	)
	cmd := c.command()
	cmd.Path, cmd.Args = bin, []string{bin, ptcBin, "acp", "--model", "script:" + model, "--preset", "standard", "--sandbox", "workspace-write"}
	cmd.Dir = ws
	cmd.Stdin = strings.NewReader("3\n")
	out, errs, code := c.collect(cmd)
	if code != 0 {
		t.Fatalf("the example client exited %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	for _, want := range []string{"Connected to agent (protocol v1)", "Created session: ", "🔧 write: a.txt (in_progress)",
		"Tool call `c1` updated", "[ plan ]", "🔧 edit: a.txt (in_progress)", "Permission requested: bash: touch the host", "3. Reject (reject_once)",
		"Tool call `b1` updated", "Agent completed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the client's output lacks %q\n%s", want, out)
		}
	}
	// It prints each message chunk on a line of its own.
	for _, want := range []string{"Editing now.", "All done."} {
		if !strings.Contains(strings.ReplaceAll(out, "\n", ""), want) {
			t.Errorf("the client's output lacks the chunks of %q\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(ws, "a.txt")); err != nil || string(b) != "bye\n" {
		t.Errorf("a.txt: %q %v", b, err)
	}
	if _, err := os.Stat(host); err == nil {
		t.Error("the rejected command ran")
	}
	_, id, _ := strings.Cut(out, "Created session: ")
	id, _, _ = strings.Cut(id, "\n")
	var denied bool
	for _, e := range c.show(strings.TrimSpace(id)).Events {
		if e.Type == session.TypeToolResult {
			r := sessiontest.Decode[session.ToolResult](t, e)
			denied = denied || r.CallID == "b1" && r.Error != nil && r.Error.Code == tools.CodeDenied
		}
	}
	if !denied {
		t.Error("the model did not get DENIED for the rejected call")
	}
}

// frameClient answers nothing but records stop reasons.
type frameClient struct{}

func (frameClient) SessionUpdate(context.Context, sdk.SessionNotification) error { return nil }
func (frameClient) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
}
func (frameClient) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, fmt.Errorf("not offered")
}
func (frameClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, fmt.Errorf("not offered")
}
func (frameClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, fmt.Errorf("not offered")
}
func (frameClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, fmt.Errorf("not offered")
}
func (frameClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, fmt.Errorf("not offered")
}
func (frameClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, fmt.Errorf("not offered")
}
func (frameClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, fmt.Errorf("not offered")
}

// A thousand prompts through the built ptc acp, ten sessions of a hundred
// at once (each session replays the script from its start), some running commands
// that print to stdout and stderr, one a session asking for an approval:
// every line the process writes on stdout is one JSON-RPC 2.0 message.
func TestAcpStdoutCarriesOnlyFrames(t *testing.T) {
	const sessions, prompts = 10, 100
	c := newCLI(t)
	ws := t.TempDir()
	var replies []any
	for i := range prompts {
		switch {
		case i%25 == 0:
			replies = append(replies, acpCall(fmt.Sprintf("b%d", i), "bash", map[string]any{"command": "echo out; echo err >&2; printf '\\033]0;x\\007'", "description": "print"}), map[string]any{"text": "printed"})
		case i == prompts-1:
			replies = append(replies, acpCall("esc", "bash", map[string]any{"command": "true", "description": "host",
				"sandbox_permissions": "danger-full-access", "justification": "j"}), map[string]any{"text": "asked"})
		default:
			replies = append(replies, map[string]any{"reasoning": "r", "text": fmt.Sprintf("answer %d\nwith a second line", i)})
		}
	}
	model := acpScript(t, replies...)
	cmd := c.command("acp", "--model", "script:"+model, "--preset", "standard")
	cmd.Dir = ws
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Every line is checked, then handed to the SDK's client.
	toClient, fromCheck := io.Pipe()
	var lines int
	var bad []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer fromCheck.Close()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines++
			var m struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Method  string          `json:"method"`
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.JSONRPC != "2.0" || m.Method == "" && m.ID == nil {
				bad = append(bad, sc.Text())
			}
			fromCheck.Write(append(sc.Bytes(), '\n'))
		}
	}()
	conn := sdk.NewClientSideConnection(frameClient{}, stdin, toClient)
	ctx := context.Background()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	// The sessions run at once, as an editor's several threads do.
	var turns sync.WaitGroup
	for s := range sessions {
		ns, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
		if err != nil {
			t.Fatal(err)
		}
		turns.Add(1)
		go func() {
			defer turns.Done()
			for i := range prompts {
				resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: ns.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock(fmt.Sprintf("prompt %d.%d", s, i))}})
				if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
					t.Errorf("session %d prompt %d: %+v %v", s, i, resp, err)
					return
				}
			}
		}()
	}
	turns.Wait()
	if t.Failed() {
		t.Fatalf("stderr: %s", stderr.String())
	}
	stdin.Close()
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ptc acp: %v\nstderr: %s", err, stderr.String())
	}
	if len(bad) > 0 {
		t.Fatalf("%d of %d lines on stdout are not JSON-RPC frames, first: %q", len(bad), lines, bad[0])
	}
	if lines < sessions*prompts*3 {
		t.Fatalf("only %d lines for %d prompts", lines, sessions*prompts)
	}
	t.Logf("%d prompts, %d frames", sessions*prompts, lines)
}
