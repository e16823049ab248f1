package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
	"github.com/ptc-dev/ptc/sandbox"
)

var (
	hostOnce sync.Once
	host     *sandbox.Host
)

func testHost() *sandbox.Host {
	hostOnce.Do(func() { host = sandbox.NewHost(sandbox.Config{}); host.Warm() })
	return host
}

func call(t *testing.T, tool tools.Tool, ctx context.Context, args any) (any, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	return tool.Execute(ctx, tools.Call{ID: "c1", Name: tool.Spec().Name, Raw: string(raw), Args: raw})
}

func code(err error) string {
	var te *tools.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return ""
}

func TestEscalationNeedsBothFieldsAndApproval(t *testing.T) {
	ws := t.TempDir()
	for _, tc := range []struct {
		name   string
		policy tools.Policy
		answer tools.Answerer
		args   map[string]any
		want   string
		asked  bool
	}{
		{"permissions without justification are invalid", tools.PolicyAsk, toolstest.Answer("allow-once"), map[string]any{"sandbox_permissions": "danger-full-access"}, tools.CodeInvalidArgs, false},
		{"a mode that is not wider is invalid", tools.PolicyAsk, toolstest.Answer("allow-once"), map[string]any{"sandbox_permissions": "read-only", "justification": "x"}, tools.CodeInvalidArgs, false},
		{"policy never denies without asking", tools.PolicyNever, toolstest.Answer("allow-once"), map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeSandboxDenied, false},
		{"no answerer denies", tools.PolicyAsk, nil, map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeSandboxDenied, true},
		{"a user denial denies", tools.PolicyAsk, toolstest.Answer("deny"), map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeSandboxDenied, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSet(testHost(), SandboxConfig{Workspace: ws, Approval: tc.policy})
			sk := &toolstest.Sink{}
			ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s", Sink: sk, Answerer: tc.answer})
			args := map[string]any{"command": "echo hi", "description": "d"}
			for k, v := range tc.args {
				args[k] = v
			}
			_, err := call(t, s.bash(), ctx, args)
			if code(err) != tc.want {
				t.Fatalf("got %v, want code %s", err, tc.want)
			}
			if asked := strings.Contains(strings.Join(sk.Types(), " "), session.TypeApprovalAsked); asked != tc.asked {
				t.Fatalf("asked=%v, events %v", asked, sk.Types())
			}
		})
	}
}

func TestAnApprovedEscalationRunsOnTheHostAndSaysSo(t *testing.T) {
	ws := t.TempDir()
	s := newSet(testHost(), SandboxConfig{Workspace: ws})
	sk := &toolstest.Sink{}
	ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s", Sink: sk, Answerer: toolstest.Answer("allow-once")})
	v, err := call(t, s.bash(), ctx, map[string]any{"command": "echo $0", "description": "d", "sandbox_permissions": "danger-full-access", "justification": "needs bash"})
	if err != nil {
		t.Fatal(err)
	}
	o := v.(BashOut)
	if r := renderBash(o); !o.Host || strings.Count(r, "outside the sandbox") != 1 || !strings.HasPrefix(r, "[ran on the host") {
		t.Fatalf("want one host marker, first; got %+v rendered %q", o, r)
	}
	if got := strings.Join(sk.Types(), " "); !strings.Contains(got, session.TypeSandboxMode) || !strings.Contains(got, session.TypeApprovalDecided) {
		t.Fatalf("events %v", got)
	}
}

func TestWriteAndEditRequireAFreshRead(t *testing.T) {
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.WriteFile(filepath.Join(ws, "f.txt"), []byte("one\ntwo\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSet(testHost(), SandboxConfig{Workspace: ws})
	ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s"})
	if _, err := call(t, s.edit(), ctx, EditIn{FilePath: "f.txt", OldString: "one", NewString: "1"}); err == nil || !strings.Contains(err.Error(), "read") {
		t.Fatalf("edit before read: %v", err)
	}
	if _, err := call(t, s.write(), ctx, WriteIn{FilePath: "f.txt", Content: "x"}); err == nil {
		t.Fatal("write over an unread file succeeded")
	}
	v, err := call(t, s.read(), ctx, ReadIn{FilePath: "f.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got := renderRead(v.(ReadOut)); !strings.Contains(got, "     1\tone") {
		t.Fatalf("read rendered %q", got)
	}
	if _, err := call(t, s.edit(), ctx, EditIn{FilePath: "f.txt", OldString: "two", NewString: "2"}); err == nil || !strings.Contains(err.Error(), "2 times") {
		t.Fatalf("non-unique edit: %v", err)
	}
	if _, err := call(t, s.edit(), ctx, EditIn{FilePath: "f.txt", OldString: "one", NewString: "1"}); err != nil {
		t.Fatalf("edit after read: %v", err)
	}
	if err := os.WriteFile(filepath.Join(ws, "f.txt"), []byte("changed behind our back\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, s.edit(), ctx, EditIn{FilePath: "f.txt", OldString: "changed", NewString: "x"}); err == nil || !strings.Contains(err.Error(), "read it again") {
		t.Fatalf("stale edit: %v", err)
	}
}

func TestGitWriteIsAskedOnceForTheSessionAndDeniedUnderNever(t *testing.T) {
	ws := t.TempDir()
	args := map[string]any{"command": "echo hi", "description": "d", "sandbox_permissions": "git-write", "justification": "commit the fix"}
	t.Run("allowed for the session, the second call is not asked again", func(t *testing.T) {
		ans := toolstest.Answer(tools.AnswerAllowSession)
		bash, _ := NewSandbox(testHost(), SandboxConfig{Workspace: ws}).Tool("bash")
		ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s1", Sink: &toolstest.Sink{}, Answerer: ans})
		for i := 0; i < 2; i++ {
			if _, err := call(t, bash, ctx, args); err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
		if len(ans.Asked()) != 1 {
			t.Fatalf("asked %d times, want 1", len(ans.Asked()))
		}
		other := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s2", Sink: &toolstest.Sink{}, Answerer: ans})
		if _, err := call(t, bash, other, args); err != nil || len(ans.Asked()) != 2 {
			t.Fatalf("another session must be asked itself: %v, asked %d", err, len(ans.Asked()))
		}
	})
	t.Run("allowed once, the next call is asked again", func(t *testing.T) {
		ans := toolstest.Answer(tools.AnswerAllowOnce)
		bash, _ := NewSandbox(testHost(), SandboxConfig{Workspace: ws}).Tool("bash")
		ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s", Sink: &toolstest.Sink{}, Answerer: ans})
		for i := 0; i < 2; i++ {
			if _, err := call(t, bash, ctx, args); err != nil {
				t.Fatal(err)
			}
		}
		if len(ans.Asked()) != 2 {
			t.Fatalf("asked %d times, want 2", len(ans.Asked()))
		}
	})
	t.Run("under approval never it is denied without asking", func(t *testing.T) {
		ans := toolstest.Answer(tools.AnswerAllowSession)
		bash, _ := NewSandbox(testHost(), SandboxConfig{Workspace: ws, Approval: tools.PolicyNever}).Tool("bash")
		ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s", Sink: &toolstest.Sink{}, Answerer: ans})
		if _, err := call(t, bash, ctx, args); code(err) != tools.CodeSandboxDenied || len(ans.Asked()) != 0 {
			t.Fatalf("got %v (asked %d), want SANDBOX_DENIED without asking", err, len(ans.Asked()))
		}
	})
}

// TestTheWriteToolCannotPlantCodeInAnyMode is the attack list,
// through the plain write tool (no escalation): each path would make the
// user's next git or ptc run a command of the attacker's choice.
func TestTheWriteToolCannotPlantCodeInAnyMode(t *testing.T) {
	attacks := []string{".git/config", ".git/commondir", ".git/modules/sub/config", ".git/hooks/pre-commit",
		"vendor/.git/config", "vendor/.git", ".ptc/presets/x.yaml", ".mcp.json"}
	for _, mode := range []sandbox.Mode{sandbox.ReadOnly, sandbox.WorkspaceWrite, sandbox.GitWrite, sandbox.DangerFullAccess} {
		for _, p := range attacks {
			t.Run(string(mode)+"/"+p, func(t *testing.T) {
				ws, _ := filepath.EvalSymlinks(t.TempDir())
				for _, d := range []string{".git/hooks", ".git/modules/sub", "vendor"} {
					if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				s := newSet(testHost(), SandboxConfig{Workspace: ws, Mode: mode})
				ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s"})
				_, err := call(t, s.write(), ctx, WriteIn{FilePath: p, Content: "[core]\n\tfsmonitor = evil\n"})
				if code(err) != tools.CodeSandboxDenied {
					t.Fatalf("got %v, want SANDBOX_DENIED", err)
				}
				if _, err := os.Stat(filepath.Join(ws, p)); err == nil && p != "vendor/.git" {
					t.Fatalf("%s was written", p)
				}
			})
		}
	}
}
