package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAnApprovalPinsTheFilesTheCommandLineNames(t *testing.T) {
	ws := t.TempDir()
	outside := filepath.Join(t.TempDir(), "elsewhere.py")
	writeFile(t, outside, "print(1)")
	writeFile(t, filepath.Join(ws, "tools/server.py"), "print('server')")
	writeFile(t, filepath.Join(ws, "pkg/package.json"), `{"main": "lib/main.js", "bin": {"x": "bin/x.js"}}`)
	writeFile(t, filepath.Join(ws, "pkg/lib/main.js"), "main")
	writeFile(t, filepath.Join(ws, "pkg/bin/x.js"), "bin")
	writeFile(t, filepath.Join(ws, "mods/srv/__main__.py"), "m")
	cases := []struct {
		name string
		s    Server
		want []string // paths pinned, in order
	}{
		{"a script", Server{Command: "python3", Args: []string{"tools/server.py"}}, []string{"tools/server.py"}},
		{"a script by absolute path", Server{Command: "python3", Args: []string{filepath.Join(ws, "tools/server.py")}}, []string{"tools/server.py"}},
		{"a package directory's entry points", Server{Command: "node", Args: []string{"pkg"}}, []string{"pkg/bin/x.js", "pkg/lib/main.js", "pkg/package.json"}},
		{"a module run with -m", Server{Command: "python3", Args: []string{"-m", "mods.srv"}}, []string{"mods/srv/__main__.py"}},
		{"a --flag=path value", Server{Command: "deno", Args: []string{"run", "--config=tools/server.py"}}, []string{"tools/server.py"}},
		{"a script that does not exist yet", Server{Command: "python3", Args: []string{"later.py"}}, []string{"later.py"}},
		{"a file outside the workspace is not the project's", Server{Command: "python3", Args: []string{outside}}, nil},
		{"a URL is no file", Server{Command: "npx", Args: []string{"-y", "https://example.com/x.js"}}, nil},
		{"the command itself, when it is a path", Server{Command: "./tools/server.py"}, []string{"tools/server.py"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.s.Name, c.s.Source = "s", SourceProject
			var got []string
			for _, p := range c.s.Pin(ws, func(string) string { return "" }) {
				got = append(got, p.Path)
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("pinned %q, want %q", got, c.want)
			}
		})
	}
}

func TestAnyChangeAsksAgain(t *testing.T) {
	ws := t.TempDir()
	script := filepath.Join(ws, "tools/mcp_server.py")
	writeFile(t, script, "print('approved')")
	base := Server{Name: "tool", Source: SourceProject, Command: "python3", Args: []string{"tools/mcp_server.py"}}
	trust := OpenTrust(t.TempDir())
	if err := trust.Approve(ws, base); err != nil {
		t.Fatal(err)
	}
	admitted := func(s Server) bool {
		got, _, err := Admit(context.Background(), []Server{s}, ws, trust, nil)
		if err != nil {
			t.Fatal(err)
		}
		return len(got) == 1
	}
	if !admitted(base) {
		t.Fatal("the approved server is not admitted")
	}
	for _, tt := range []struct {
		name   string
		change func(s *Server)
	}{
		{"an env entry", func(s *Server) { s.Env = map[string]string{"PYTHONPATH": "vendor/shim"} }},
		{"a header", func(s *Server) { s.Headers = map[string]string{"X-Trace": "${DEEPSEEK_API_KEY}"} }},
		{"the cwd", func(s *Server) { s.Cwd = "sub" }},
		{"the sandbox", func(s *Server) { s.Sandbox = SandboxUnconfined }},
		{"the network", func(s *Server) { s.Network = true }},
		{"the url", func(s *Server) { s.URL = "https://evil.example" }},
	} {
		t.Run("changing "+tt.name, func(t *testing.T) {
			s := base
			tt.change(&s)
			if admitted(s) {
				t.Fatal("admitted without asking")
			}
		})
	}
	t.Run("rewriting the script", func(t *testing.T) {
		writeFile(t, script, "import os; print(os.environ)")
		if admitted(base) {
			t.Fatal("a swapped script was admitted")
		}
		a := &toolstest.Answerer{}
		Admit(context.Background(), []Server{base}, ws, trust, envFor(a))
		if len(a.Asked()) != 1 || !strings.Contains(a.Asked()[0].Args, "tools/mcp_server.py") || !strings.Contains(a.Asked()[0].Args, `"sha256"`) {
			t.Fatalf("the question should show the pinned file: %+v", a.Asked())
		}
	})
}

func TestTheApprovalShowsTheWholeDefinition(t *testing.T) {
	s := Server{Name: "shim", Source: SourceProject, File: "/ws/.mcp.json", Command: "python3", Args: []string{"-c", "pass"},
		Env: map[string]string{"PYTHONPATH": "vendor/shim"}, Cwd: "sub"}
	got := s.ApprovalText("/ws")
	for _, want := range []string{`"PYTHONPATH": "vendor/shim"`, `"cwd": "sub"`, `"command": "python3"`, "confined", "no network"} {
		if !strings.Contains(got, want) {
			t.Errorf("the approval lacks %s:\n%s", want, got)
		}
	}
	h := Server{Name: "w", Source: SourceProject, Type: "http", URL: "https://x.example/mcp", Headers: map[string]string{"X-Trace": "${DEEPSEEK_API_KEY}"}}
	if got := h.ApprovalText("/ws"); !strings.Contains(got, `"X-Trace": "${DEEPSEEK_API_KEY}"`) || !strings.Contains(got, "https://x.example/mcp") {
		t.Errorf("an HTTP server's approval lacks its headers or url:\n%s", got)
	}
	u := s
	u.Sandbox = SandboxUnconfined
	if got := u.ApprovalText("/ws"); !strings.Contains(got, "UNCONFINED") {
		t.Errorf("an unconfined server's approval must say so:\n%s", got)
	}
}

// fakeConfiner runs a confined server as a plain process with only the
// environment the Program carries, recording what it was given.
type fakeConfiner struct {
	mu       sync.Mutex
	programs []Program
}

func (f *fakeConfiner) Run(ctx context.Context, p Program) error {
	f.mu.Lock()
	f.programs = append(f.programs, p)
	f.mu.Unlock()
	cmd := exec.CommandContext(ctx, p.Command, p.Args...)
	cmd.Env = []string{}
	for k, v := range p.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = p.Dir, p.Stdin, p.Stdout, p.Stderr
	return cmd.Run()
}

func (f *fakeConfiner) started() []Program {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Program(nil), f.programs...)
}

func TestAProjectServerRunsConfinedAndStopsOnceItsScriptChanged(t *testing.T) {
	ws := t.TempDir()
	script := filepath.Join(ws, "tools", "server.py")
	writeFile(t, script, "approved")
	t.Setenv("PTC_TEST_CANARY_KEY", "sk-secret")
	srv := testStdioServer(t, "proj")
	srv.Source, srv.Args = SourceProject, append(srv.Args, script)
	trust := OpenTrust(t.TempDir())
	if err := trust.Approve(ws, srv); err != nil {
		t.Fatal(err)
	}
	admitted, _, err := Admit(context.Background(), []Server{srv}, ws, trust, nil)
	if err != nil || len(admitted) != 1 {
		t.Fatalf("admitted %v %v", admitted, err)
	}
	t.Run("without a confiner it does not start at all", func(t *testing.T) {
		m := startManager(t, admitted, Options{Workspace: ws})
		if st := m.Servers()[0]; st.State != StateFailed || !strings.Contains(st.Error, "must run confined") {
			t.Fatalf("state %+v", st)
		}
	})
	conf := &fakeConfiner{}
	var mu sync.Mutex
	var notices []string
	m := startManager(t, admitted, Options{Workspace: ws, Confine: conf, Notify: func(s string) { mu.Lock(); notices = append(notices, s); mu.Unlock() }})
	if len(m.Tools()) == 0 {
		t.Fatalf("no tools: %+v", m.Servers())
	}
	progs := conf.started()
	if len(progs) != 1 || progs[0].Workspace != ws {
		t.Fatalf("the confiner ran %+v", progs)
	}
	var keys []string
	for k := range progs[0].Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, " ") != testServerEnv {
		t.Fatalf("the confined server's environment holds %q, want only its definition's", keys)
	}
	writeFile(t, script, "swapped after approval")
	crash := findTool(t, m, "mcp__proj__crash")
	_, _ = crash.Execute(context.Background(), tools.Call{ID: "c", Name: crash.Spec().Name, Args: []byte(`{}`)})
	deadline := time.Now().Add(time.Minute)
	for m.Servers()[0].State != StateFailed && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if st := m.Servers()[0]; st.State != StateFailed || !strings.Contains(st.Error, "changed since it was approved") {
		t.Fatalf("a swapped script was restarted: %+v", st)
	}
	if n := len(conf.started()); n != 1 {
		t.Fatalf("the confiner ran the server %d times", n)
	}
}

func findTool(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Spec().Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}
