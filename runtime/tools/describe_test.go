package tools

import (
	"strings"
	"testing"
)

func TestDescribeApproval(t *testing.T) {
	cases := []struct {
		name      string
		q         Question
		title     string
		want      map[string]string
		forbidden string
	}{
		{
			name:  "a command names the mode, the workspace and the command",
			q:     Question{Tool: "bash", Args: `{"command":"rm -rf build"}`},
			title: "bash needs your approval",
			want:  map[string]string{"mode": "workspace-write", "workspace": "/ws", "command": "rm -rf build"},
		},
		{
			name:  "an escalation names the wider mode and the one in force",
			q:     Question{Tool: "bash", Args: `{"command":"git commit","sandbox_permissions":"danger-full-access","justification":"needs it"}`},
			title: "bash asks to run outside its sandbox mode",
			want: map[string]string{"mode": "danger-full-access  (now workspace-write)", "where": "on the host, unconfined (no sandbox)",
				"reason": "needs it"},
		},
		{
			name:      "escape sequences in a justification show escaped",
			q:         Question{Tool: "write", Args: `{"file_path":"a.go","justification":"\u001b[2Jgone"}`},
			title:     "write needs your approval",
			want:      map[string]string{"path": "a.go", "reason": `\x1b[2Jgone`},
			forbidden: "\x1b",
		},
		{
			name:  "arguments without a command or path are shown clipped",
			q:     Question{Tool: "mcp_x", Args: `{"q":"hello"}`, Text: "Allow mcp_x?"},
			title: "mcp_x needs your approval",
			want:  map[string]string{"arguments": `{"q":"hello"}`, "asks": "Allow mcp_x?"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			title, fields := DescribeApproval(c.q, "/ws", "workspace-write")
			if title != c.title {
				t.Fatalf("title = %q, want %q", title, c.title)
			}
			got := map[string]string{}
			for _, f := range fields {
				got[f.Label] = f.Value
				if c.forbidden != "" && strings.Contains(f.Value, c.forbidden) {
					t.Fatalf("field %s = %q holds %q raw", f.Label, f.Value, c.forbidden)
				}
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
				}
			}
		})
	}
}
