package harness

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/toolbox"
)

// TestBackgroundChildrenCanBeReadAndStopped drives agent_output and
// agent_stop the way a model does, with the id subagent returned.
func TestBackgroundChildrenCanBeReadAndStopped(t *testing.T) {
	home, err := OpenHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer home.Close()
	script := map[string]any{
		"replies": []any{map[string]any{"text": "unused"}},
		"agents": []any{
			map[string]any{"match": "quick task", "replies": []any{map[string]any{"text": "quick answer"}}},
			map[string]any{"match": "slow task", "replies": []any{map[string]any{"text": strings.Repeat("slow ", 50), "delay_ms": 5000}}},
		},
	}
	b, _ := json.Marshal(script)
	model := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(model, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), home, Options{Settings: session.Settings{Preset: "standard", Model: "script:" + model, Workspace: t.TempDir()},
		Toolset: func(ToolsetConfig) (*tools.Registry, error) { return tools.NewRegistry(tools.PresentNative) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := s.scope.children
	reg, err := tools.NewRegistry(tools.PresentNative, toolbox.Subagent(c), toolbox.AgentOutput(c), toolbox.AgentStop(c), toolbox.AgentList(c))
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRunner(reg, tools.RunnerConfig{})
	ctx := tools.WithEnv(context.Background(), &tools.Env{Sink: s.currentAgent()})
	do := func(name string, args map[string]any) toolbox.ChildInfo {
		t.Helper()
		raw, _ := json.Marshal(args)
		res := r.Dispatch(ctx, tools.Call{ID: "c-" + name, Name: name, Raw: string(raw)})
		if res.IsError {
			t.Fatalf("%s: %s", name, res.Content)
		}
		return res.Value.(toolbox.ChildInfo)
	}
	quick := do(toolbox.SubagentName, map[string]any{"description": "quick", "prompt": "a quick task", "run_in_background": true})
	slow := do(toolbox.SubagentName, map[string]any{"description": "slow", "prompt": "a slow task", "run_in_background": true})
	if quick.Status != childRunning || slow.Status != childRunning || quick.AgentID == slow.AgentID {
		t.Fatalf("%+v %+v", quick, slow)
	}
	if got := do(toolbox.AgentOutputName, map[string]any{"agent_id": quick.AgentID, "wait": true}); got.Status != "completed" || got.Text != "quick answer" {
		t.Fatalf("agent_output: %+v", got)
	}
	if got := do(toolbox.AgentStopName, map[string]any{"agent_id": slow.AgentID}); got.Status != "stopped" {
		t.Fatalf("agent_stop: %+v", got)
	}
	if res := r.Dispatch(ctx, tools.Call{Name: toolbox.AgentOutputName, Raw: `{"agent_id":"nope"}`}); !res.IsError || !strings.Contains(res.Content, quick.AgentID) {
		t.Fatalf("an unknown id must name the known ones: %q", res.Content)
	}
	ends := 0
	for _, e := range s.Events() {
		if e.Type == session.TypeSubagentEnd {
			ends++
		}
	}
	if ends != 2 {
		t.Fatalf("%d subagent/end events", ends)
	}
}

// currentAgent is the agent in force (a settings change replaces it).
func (s *Session) currentAgent() *agent.Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agent
}
