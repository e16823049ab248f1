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
			name: "an unconfined escalation says so, with the mode in force",
			q: Question{Tool: "bash", Mode: "danger-full-access", Current: "workspace-write", Unconfined: true, Justification: "needs it",
				Args: `{"command":"git commit","sandbox_permissions":"danger-full-access","justification":"needs it"}`},
			title: "bash asks to run UNCONFINED on the host",
			want: map[string]string{"mode": "danger-full-access, UNCONFINED: no sandbox (now workspace-write)",
				"model says": "“needs it” (the model's words, not checked)"},
		},
		{
			name:  "a confined escalation names the wider mode and the one in force",
			q:     Question{Tool: "bash", Mode: "git-write", Current: "workspace-write", Args: `{"command":"git commit"}`},
			title: "bash asks to run outside its sandbox mode",
			want:  map[string]string{"mode": "git-write (now workspace-write)", "command": "git commit"},
		},
		{
			name:      "escape sequences in a justification show escaped",
			q:         Question{Tool: "write", Args: `{"file_path":"a.go","justification":"\u001b[2Jgone"}`},
			title:     "write needs your approval",
			want:      map[string]string{"path": "a.go", "model says": "“\\x1b[2Jgone” (the model's words, not checked)"},
			forbidden: "\x1b",
		},
		{
			name:  "a padded command shows its run of spaces counted and every character after it",
			q:     Question{Tool: "bash", Args: `{"command":"ls -la` + strings.Repeat(" ", 300) + `; echo HOST > x"}`},
			title: "bash needs your approval",
			want:  map[string]string{"command": "ls -la⟨300 spaces⟩; echo HOST > x"},
		},
		{
			name:  "a justification is clipped to a few lines",
			q:     Question{Tool: "bash", Mode: "git-write", Current: "workspace-write", Justification: strings.Repeat("y", 1000)},
			title: "bash asks to run outside its sandbox mode",
			want:  map[string]string{"model says": "“" + strings.Repeat("y", MaxJustification) + "… (800 more bytes, clipped)” (the model's words, not checked)"},
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
			if first, last := fields[0], fields[len(fields)-1]; first.Label != "mode" || last != first {
				t.Errorf("the mode line must come first and last: %v", fields)
			}
		})
	}
}
