package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

func TestParseFileReadsTheCommonFormat(t *testing.T) {
	cases := []struct {
		name, data string
		want       string // Transport()+" "+Describe() of the one server, or the error
	}{
		{"a stdio server", `{"mcpServers":{"m":{"command":"npx","args":["-y","@x/server"],"env":{"K":"v"}}}}`, "stdio npx -y @x/server"},
		{"an http server", `{"mcpServers":{"w":{"type":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer x"}}}}`, "http https://example.com/mcp"},
		{"a url without a type is http", `{"mcpServers":{"w":{"url":"http://127.0.0.1:9/mcp"}}}`, "http http://127.0.0.1:9/mcp"},
		{"streamable-http is http", `{"mcpServers":{"w":{"type":"streamable-http","url":"http://h/mcp"}}}`, "http http://h/mcp"},
		{"an sse server", `{"mcpServers":{"w":{"type":"sse","url":"http://h/sse"}}}`, "sse http://h/sse"},
		{"no command", `{"mcpServers":{"m":{"args":["x"],"type":"stdio"}}}`, `server "m": a stdio server needs a command`},
		{"an unknown type", `{"mcpServers":{"m":{"type":"carrier-pigeon","url":"x"}}}`, `unknown type "carrier-pigeon"`},
		{"a file URL", `{"mcpServers":{"m":{"url":"file:///etc/passwd"}}}`, "must be http or https"},
		{"a bad approval", `{"mcpServers":{"m":{"command":"x","approval":"maybe"}}}`, `approval "maybe"`},
		{"a negative timeout", `{"mcpServers":{"m":{"command":"x","timeout":-1}}}`, "timeout must not be negative"},
		{"not JSON", `{"mcpServers":`, "not a valid MCP configuration"},
		{"a wrong field type", `{"mcpServers":{"m":{"command":7}}}`, `server "m"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseFile([]byte(c.data), "f.json", SourceUser)
			var s string
			if err != nil {
				s = err.Error()
				if !strings.HasPrefix(s, "f.json: ") {
					t.Errorf("the error should name the file: %s", s)
				}
			} else {
				s = got[0].Transport() + " " + got[0].Describe()
			}
			if !strings.Contains(s, c.want) {
				t.Errorf("got %q, want %q", s, c.want)
			}
		})
	}
}

func TestLoadMergesUserProjectAndFlagFiles(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	flag := filepath.Join(t.TempDir(), "extra.json")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, UserFile), `{"mcpServers":{"a":{"command":"user-a"},"b":{"command":"user-b"},"off":{"command":"x","disabled":true}}}`)
	write(filepath.Join(ws, ProjectFile), `{"mcpServers":{"b":{"command":"project-b"},"c":{"command":"project-c"}}}`)
	write(flag, `{"mcpServers":{"c":{"command":"flag-c"}}}`)
	got, err := Load(Files{Home: home, Workspace: ws, Flags: []string{flag}})
	if err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, s := range got {
		desc = append(desc, s.Name+"="+s.Command+"/"+string(s.Source))
	}
	if want := "a=user-a/user b=project-b/project c=flag-c/flag"; strings.Join(desc, " ") != want {
		t.Errorf("got %v, want %s", desc, want)
	}
	if _, err := Load(Files{Flags: []string{filepath.Join(ws, "missing.json")}}); err == nil {
		t.Error("a missing --mcp-config file is an error")
	}
	if got, err := Load(Files{Home: t.TempDir(), Workspace: t.TempDir()}); err != nil || len(got) != 0 {
		t.Errorf("no files is no servers: %v %v", got, err)
	}
}

func TestExpansionFillsVariablesAndPaths(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "DIR": "/data"}
	s := Server{Name: "x", File: "/proj/.mcp.json", Command: "${DIR}/bin/server", Args: []string{"--token=${TOKEN}", "${MISSING:-fallback}", "$HOME"},
		Env: map[string]string{"K": "${TOKEN}"}, Cwd: "sub", Headers: map[string]string{"A": "Bearer ${TOKEN}"}}
	x := s.expanded(func(k string) string { return env[k] }, "/ws")
	got := strings.Join(append([]string{x.Command, x.Cwd, x.Env["K"], x.Headers["A"]}, x.Args...), "|")
	if want := "/data/bin/server|/proj/sub|t0k|Bearer t0k|--token=t0k|fallback|$HOME"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if s.Args[0] != "--token=${TOKEN}" {
		t.Error("expansion must not change the loaded server")
	}
	if y := (Server{Name: "y"}).expanded(func(string) string { return "" }, "/ws"); y.Cwd != "/ws" {
		t.Errorf("the default working directory is the workspace, got %q", y.Cwd)
	}
}

func TestProjectServersStartOnlyOnceApproved(t *testing.T) {
	home, ws := t.TempDir(), "/work/repo"
	trust := OpenTrust(home)
	project := Server{Name: "p\x1b[31m", Source: SourceProject, Command: "node", Args: []string{"evil.js"}}
	user := Server{Name: "u", Source: SourceUser, Command: "node"}
	servers := []Server{project, user}

	t.Run("without an answerer the project server is skipped with a notice", func(t *testing.T) {
		got, notices, err := Admit(context.Background(), servers, ws, trust, nil)
		if err != nil || len(got) != 1 || got[0].Name != "u" {
			t.Fatalf("admitted %v, %v", got, err)
		}
		if len(notices) != 1 || !strings.Contains(notices[0], "ptc mcp approve") || strings.Contains(notices[0], "\x1b") {
			t.Errorf("notices %q", notices)
		}
	})
	t.Run("a headless answerer also skips it", func(t *testing.T) {
		a := &toolstest.Answerer{}
		got, _, _ := Admit(context.Background(), servers, ws, trust, envFor(a))
		if len(got) != 1 || len(a.Asked()) != 1 || strings.Contains(a.Asked()[0].Text, "\x1b") {
			t.Fatalf("admitted %v, asked %+v", got, a.Asked())
		}
	})
	t.Run("approval policy never skips it without asking, logged as a policy denial", func(t *testing.T) {
		a, sink := toolstest.Answer(tools.AnswerAllowOnce), &toolstest.Sink{}
		svc := tools.NewApprovals(tools.PolicyNever)
		svc.Attend(a)
		got, notices, _ := Admit(context.Background(), servers, ws, trust, &tools.Env{Approvals: svc, Sink: sink})
		if len(got) != 1 || len(a.Asked()) != 0 || len(notices) != 1 || !strings.Contains(notices[0], "ptc mcp approve") {
			t.Fatalf("admitted %v, asked %d, notices %q", got, len(a.Asked()), notices)
		}
		data := sink.Data()
		if d, ok := data[len(data)-1].(session.ApprovalDecided); !ok || d.Decision != tools.AnswerDeny || d.By != tools.ByPolicy {
			t.Fatalf("decided %+v", data)
		}
	})
	t.Run("allow once starts it without remembering", func(t *testing.T) {
		got, _, _ := Admit(context.Background(), servers, ws, trust, envFor(toolstest.Answer(tools.AnswerAllowOnce)))
		if len(got) != 2 {
			t.Fatalf("admitted %v", got)
		}
		if ok, _ := trust.Approved(ws, project); ok {
			t.Error("allow once must not be remembered")
		}
	})
	t.Run("allow for the session is remembered for this workspace", func(t *testing.T) {
		if got, _, _ := Admit(context.Background(), servers, ws, trust, envFor(toolstest.Answer(tools.AnswerAllowSession))); len(got) != 2 {
			t.Fatalf("admitted %v", got)
		}
		if got, _, _ := Admit(context.Background(), servers, ws, trust, nil); len(got) != 2 {
			t.Fatalf("an approved server starts headless: %v", got)
		}
		if got, _, _ := Admit(context.Background(), servers, "/other/repo", trust, nil); len(got) != 1 {
			t.Fatalf("approval is per workspace: %v", got)
		}
	})
	t.Run("a changed definition needs approval again", func(t *testing.T) {
		changed := project
		changed.Args = []string{"worse.js"}
		if got, _, _ := Admit(context.Background(), []Server{changed}, ws, trust, nil); len(got) != 0 {
			t.Fatalf("admitted %v", got)
		}
	})
	t.Run("revoke forgets it", func(t *testing.T) {
		if err := trust.Revoke(ws, project.Name); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := Admit(context.Background(), servers, ws, trust, nil); len(got) != 1 {
			t.Fatalf("admitted %v", got)
		}
	})
	t.Run("a corrupt trust file is an error that says what to do", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(home, TrustFile), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Admit(context.Background(), servers, ws, trust, nil)
		if err == nil || !strings.Contains(err.Error(), "remove it") {
			t.Fatalf("got %v", err)
		}
	})
}

// envFor is a session's Env whose user is a.
func envFor(a tools.Answerer) *tools.Env {
	return &tools.Env{Approvals: toolstest.Approvals(a), Sink: &toolstest.Sink{}}
}

func TestToolNamesAreStableCappedAndDistinct(t *testing.T) {
	long := strings.Repeat("x", 80)
	pairs := [][2]string{{"memory", "create_entities"}, {"my server", "a.b"}, {"my_server", "a_b"}, {"s", long}, {"fs", "read-file"}}
	got := toolNames(pairs)
	if got[pairs[0]] != "mcp__memory__create_entities" || got[pairs[4]] != "mcp__fs__read-file" {
		t.Errorf("plain names: %v", got)
	}
	if got[pairs[1]] == got[pairs[2]] || !strings.HasPrefix(got[pairs[1]], "mcp__my_server__a_b_") {
		t.Errorf("names that clean to the same text must differ, each with its hash: %q %q", got[pairs[1]], got[pairs[2]])
	}
	if n := got[pairs[3]]; len(n) != MaxNameLength || !strings.HasPrefix(n, "mcp__s__xxx") {
		t.Errorf("a long name is cut to %d with a hash: %q (%d)", MaxNameLength, n, len(n))
	}
	rev := append([][2]string(nil), pairs...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	again := toolNames(rev)
	for _, p := range pairs {
		if again[p] != got[p] {
			t.Errorf("names must not depend on order: %q vs %q", again[p], got[p])
		}
		if err := validWireName(got[p]); err != nil {
			t.Error(err)
		}
	}
}

func validWireName(n string) error {
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return &json.UnsupportedValueError{Str: n}
		}
	}
	return nil
}

func TestResultValues(t *testing.T) {
	cases := []struct{ name, raw, want, code string }{
		{"no content is null", `{"content":[]}`, `null`, ""},
		{"JSON text", `{"content":[{"type":"text","text":" [1, 2] "}]}`, `[1,2]`, ""},
		{"plain text", `{"content":[{"type":"text","text":"hello"}]}`, `"hello"`, ""},
		{"structured content wins over text", `{"content":[{"type":"text","text":"see below"}],"structuredContent":{"b":1,"a":2}}`, `{"b":1,"a":2}`, ""},
		{"two texts are an array", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"{\"x\":1}"}]}`, `["a",{"x":1}]`, ""},
		{"a resource link is its object", `{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}`, `{"type":"resource_link","uri":"file:///a","name":"a"}`, ""},
		{"isError without text", `{"content":[],"isError":true}`, "", tools.CodeToolFailed},
		{"not a result", `[]`, "", tools.CodeInvalidToolOutput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := resultValue(json.RawMessage(c.raw))
			if c.code != "" {
				var te *tools.Error
				if !errors.As(err, &te) || te.Code != c.code {
					t.Fatalf("want %s, got %v", c.code, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(v)
			if string(b) != c.want {
				t.Errorf("got %s, want %s", b, c.want)
			}
		})
	}
}
