package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// changingSource is a ToolSource whose tool set the test changes.
type changingSource struct {
	mu      sync.Mutex
	tools   []tools.Tool
	changed bool
}

func (c *changingSource) Tools() []tools.Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]tools.Tool(nil), c.tools...)
}

func (c *changingSource) Refresh(context.Context) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.changed
	c.changed = false
	return ch
}

func (c *changingSource) set(ts ...tools.Tool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tools, c.changed = ts, true
}

func sourceTool(name string) tools.Tool {
	return tools.New(tools.Spec{Name: name, Description: "from the source", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, tools.Call, struct{}) (string, error) { return "ok", nil })
}

// programTools presents the extra tools to programs, as the ptc preset does.
func programTools(cfg harness.ToolsetConfig) (*tools.Registry, error) {
	return tools.NewRegistry(tools.PresentPTC, cfg.Extra...)
}

func TestAToolSourceChangeRebuildsTheSDKAtTheNextStep(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "one", "two")
	src := &changingSource{tools: []tools.Tool{sourceTool("mcp__a__first")}}
	s := open(t, newHome(t), harness.Options{Getwd: func() (string, error) { return dir, nil }, ToolSource: src, Toolset: programTools,
		Settings: session.Settings{Preset: "ptc", Model: "script:model.json", Workspace: dir}})
	defer s.Close()
	run(t, s, "hi")
	src.set(sourceTool("mcp__a__first"), sourceTool("mcp__a__second"))
	run(t, s, "again")
	var headers []session.RequestHeader
	for _, e := range s.Events() {
		if e.Type == session.TypeRequestHeader {
			var h session.RequestHeader
			if err := json.Unmarshal(e.Data, &h); err != nil {
				t.Fatal(err)
			}
			headers = append(headers, h)
		}
	}
	if len(headers) != 2 {
		t.Fatalf("want the initial header and one change, got %d", len(headers))
	}
	if strings.Contains(headers[0].System, "mcp__a__second") || !strings.Contains(headers[1].System, "mcp__a__second(") {
		t.Fatalf("the SDK section should gain the new tool at the change:\n%s", headers[1].System)
	}
	if headers[1].Reason != "change" {
		t.Fatalf("reason %q", headers[1].Reason)
	}
}

func TestSessionMCPOptions(t *testing.T) {
	home := newHome(t)
	model := "script:" + writeScript(t, t.TempDir(), "hi")
	t.Run("MCP and a ToolSource together are refused", func(t *testing.T) {
		_, err := harness.Open(context.Background(), home, harness.Options{Settings: session.Settings{Model: model, Workspace: t.TempDir()},
			Toolset: noTools, MCP: &harness.MCPOptions{}, ToolSource: &changingSource{}})
		if err == nil || !strings.Contains(err.Error(), "not both") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("StartMCP without MCP options says so", func(t *testing.T) {
		s := open(t, home, harness.Options{Settings: session.Settings{Model: model, Workspace: t.TempDir()}})
		if _, err := s.StartMCP(context.Background()); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("a workspace without servers starts none and the session runs", func(t *testing.T) {
		s := open(t, home, harness.Options{Settings: session.Settings{Model: model, Workspace: t.TempDir()}, MCP: &harness.MCPOptions{}})
		notices, err := s.StartMCP(context.Background())
		if err != nil || len(notices) != 0 {
			t.Fatalf("%v %v", err, notices)
		}
		if out, err := s.Run(context.Background(), "hello"); err != nil || out.Text != "hi" {
			t.Fatalf("%v %+v", err, out)
		}
	})
}
