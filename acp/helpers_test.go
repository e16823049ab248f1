package acp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/acp"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// client is an ACP client on the SDK's client side: it records every
// update and answers permission requests with answer.
type client struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	asked   []sdk.RequestPermissionRequest
	// answer picks the option (nil: the first reject); an error means the
	// client cannot answer.
	answer func(sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	// onUpdate sees each update as it arrives (the cancel test).
	onUpdate func(sdk.SessionNotification)
}

func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	f := c.onUpdate
	c.mu.Unlock()
	if f != nil {
		f(n)
	}
	return nil
}

func (c *client) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asked = append(c.asked, p)
	f := c.answer
	c.mu.Unlock()
	if f != nil {
		return f(p)
	}
	return choose(p, sdk.PermissionOptionKindRejectOnce), nil
}

// choose selects the first option of kind.
func choose(p sdk.RequestPermissionRequest, kind sdk.PermissionOptionKind) sdk.RequestPermissionResponse {
	for _, o := range p.Options {
		if o.Kind == kind {
			return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(o.OptionId)}
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
}

func (c *client) take() []sdk.SessionNotification {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.updates
	c.updates = nil
	return out
}

func (c *client) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	panic("ptc must not use the client's file system")
}
func (c *client) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	panic("ptc must not use the client's file system")
}
func (c *client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	panic("ptc must not use the client's terminals")
}
func (c *client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	panic("ptc must not use the client's terminals")
}
func (c *client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	panic("ptc must not use the client's terminals")
}
func (c *client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	panic("ptc must not use the client's terminals")
}
func (c *client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	panic("ptc must not use the client's terminals")
}

// rig is ptc acp in process over pipes, with a client connected.
type rig struct {
	t    *testing.T
	home *harness.Home
	ws   string
	cl   *client
	conn *sdk.ClientSideConnection
	stop func()
}

// start serves home with settings over pipes and connects cl; override
// names the settings that replace a loaded session's.
func start(t *testing.T, home *harness.Home, settings session.Settings, cl *client, override ...session.Field) *rig {
	t.Helper()
	toAgent, fromClient := io.Pipe()
	toClient, fromAgent := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- acp.Serve(ctx, acp.Config{Home: home, Options: harness.Options{Settings: settings, Override: override}, Version: "test", Logf: t.Logf}, toAgent, fromAgent)
		fromAgent.Close()
	}()
	r := &rig{t: t, home: home, cl: cl, conn: sdk.NewClientSideConnection(cl, fromClient, toClient)}
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			fromClient.Close()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
			cancel()
		})
	}
	t.Cleanup(r.stop)
	if _, err := r.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig) newSession(ws string) sdk.SessionId {
	r.t.Helper()
	resp, err := r.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: ws, McpServers: []sdk.McpServer{}})
	if err != nil {
		r.t.Fatal(err)
	}
	return resp.SessionId
}

func (r *rig) prompt(id sdk.SessionId, text string) sdk.PromptResponse {
	r.t.Helper()
	resp, err := r.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	if err != nil {
		r.t.Fatal(err)
	}
	return resp
}

// theHome is the one home of the package's tests: one sandbox host, so
// the guest is compiled once.
var theHome *harness.Home

func TestMain(m *testing.M) {
	if p := os.Getenv("PTC_ACP_CLAIM_HELPER"); p != "" {
		claimHelper(p)
	}
	// The SDK logs connection ends through slog's default logger.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	dir, err := os.MkdirTemp("", "ptc-acp-test-")
	if err != nil {
		panic(err)
	}
	if theHome, err = harness.OpenHome(dir); err != nil {
		panic(err)
	}
	code := m.Run()
	theHome.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

func newHome(*testing.T) *harness.Home { return theHome }

// workspace is a fresh workspace with symlinks resolved (as ptc records it).
func workspace(t *testing.T) string {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// script writes a scripted model and returns settings using it.
func script(t *testing.T, replies ...any) session.Settings {
	t.Helper()
	b, err := json.Marshal(map[string]any{"replies": replies})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return session.Settings{Preset: "standard", Model: "script:" + path, Sandbox: "workspace-write", Approval: "ask"}
}

func text(s string) map[string]any { return map[string]any{"text": s} }

func calls(cs ...map[string]any) map[string]any { return map[string]any{"tool_calls": cs} }

func call(id, name string, args map[string]any) map[string]any {
	return map[string]any{"id": id, "name": name, "arguments": args}
}

// kinds names each update's kind, in order.
func kinds(ns []sdk.SessionNotification) []string {
	var out []string
	for _, n := range ns {
		out = append(out, kind(n.Update))
	}
	return out
}

func kind(u sdk.SessionUpdate) string {
	switch {
	case u.UserMessageChunk != nil:
		return "user"
	case u.AgentMessageChunk != nil:
		return "message"
	case u.AgentThoughtChunk != nil:
		return "thought"
	case u.ToolCall != nil:
		return "tool_call " + string(u.ToolCall.ToolCallId)
	case u.ToolCallUpdate != nil:
		return "tool_call_update " + string(u.ToolCallUpdate.ToolCallId)
	case u.Plan != nil:
		return "plan"
	case u.CurrentModeUpdate != nil:
		return "mode " + string(u.CurrentModeUpdate.CurrentModeId)
	case u.UsageUpdate != nil:
		return "usage"
	case u.AvailableCommandsUpdate != nil:
		return "commands"
	}
	return "other"
}

// compact merges runs of message and thought chunks into one entry each.
func compact(ks []string) []string {
	var out []string
	for _, k := range ks {
		if (k == "message" || k == "thought") && len(out) > 0 && out[len(out)-1] == k {
			continue
		}
		out = append(out, k)
	}
	return out
}

// texts joins the text of the updates of one kind ("message", "thought", "user").
func texts(ns []sdk.SessionNotification, k string) string {
	var s string
	for _, n := range ns {
		u := n.Update
		var c *sdk.ContentBlock
		switch {
		case k == "message" && u.AgentMessageChunk != nil:
			c = &u.AgentMessageChunk.Content
		case k == "thought" && u.AgentThoughtChunk != nil:
			c = &u.AgentThoughtChunk.Content
		case k == "user" && u.UserMessageChunk != nil:
			c = &u.UserMessageChunk.Content
		}
		if c != nil && c.Text != nil {
			s += c.Text.Text
		}
	}
	return s
}
