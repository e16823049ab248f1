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

// through runs one call of tool through the pipeline, with svc deciding.
func through(t *testing.T, svc *tools.Approvals, env *tools.Env, tool tools.Tool, args any) tools.Result {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, tool)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(args)
	r := tools.NewRunner(reg, tools.RunnerConfig{Approvals: svc})
	return r.Dispatch(tools.WithEnv(context.Background(), env), tools.Call{ID: "c1", Name: tool.Spec().Name, Raw: string(raw)})
}

func resultCode(r tools.Result) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// service is an approval service under p with a attending (none if nil).
func service(p tools.Policy, a tools.Answerer) *tools.Approvals {
	svc := tools.NewApprovals(p)
	if a != nil {
		svc.Attend(a)
	}
	return svc
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
		{"policy never denies without asking", tools.PolicyNever, toolstest.Answer("allow-once"), map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeDenied, false},
		{"no answerer denies", tools.PolicyAsk, nil, map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeDenied, false},
		{"a headless answerer denies", tools.PolicyAsk, &toolstest.Answerer{}, map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeDenied, true},
		{"a user denial denies", tools.PolicyAsk, toolstest.Answer("deny"), map[string]any{"sandbox_permissions": "danger-full-access", "justification": "x"}, tools.CodeDenied, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSet(testHost(), SandboxConfig{Workspace: ws})
			sk := &toolstest.Sink{}
			args := map[string]any{"command": "echo hi", "description": "d"}
			for k, v := range tc.args {
				args[k] = v
			}
			res := through(t, service(tc.policy, tc.answer), &tools.Env{SessionID: "s", Sink: sk}, s.bash(), args)
			if resultCode(res) != tc.want {
				t.Fatalf("got %q, want code %s", res.Content, tc.want)
			}
			if asked := strings.Contains(strings.Join(sk.Types(), " "), session.TypeApprovalAsked); asked != tc.asked {
				t.Fatalf("asked=%v, events %v", asked, sk.Types())
			}
		})
	}
}

func TestAnEscalationRunsOnlyThroughThePipeline(t *testing.T) {
	s := newSet(testHost(), SandboxConfig{Workspace: t.TempDir()})
	ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s"})
	_, err := call(t, s.bash(), ctx, map[string]any{"command": "echo $0", "description": "d", "sandbox_permissions": "danger-full-access", "justification": "x"})
	if code(err) != tools.CodeDenied || !strings.Contains(err.Error(), "not approved") {
		t.Fatalf("a body run without the pipeline's approval escalated: %v", err)
	}
}

func TestAnApprovedEscalationRunsOnTheHostAndSaysSo(t *testing.T) {
	ws := t.TempDir()
	s := newSet(testHost(), SandboxConfig{Workspace: ws})
	sk, ans := &toolstest.Sink{}, toolstest.Answer("allow-once")
	res := through(t, service(tools.PolicyAsk, ans), &tools.Env{SessionID: "s", Sink: sk, Mode: "workspace-write"}, s.bash(),
		map[string]any{"command": "echo $0", "description": "d", "sandbox_permissions": "danger-full-access", "justification": "needs bash"})
	if res.IsError {
		t.Fatal(res.Content)
	}
	o := res.Value.(BashOut)
	if r := renderBash(o); !o.Host || strings.Count(r, "outside the sandbox") != 1 || !strings.HasPrefix(r, "[ran on the host") {
		t.Fatalf("want one host marker, first; got %+v rendered %q", o, r)
	}
	if got := strings.Join(sk.Types(), " "); !strings.Contains(got, session.TypeSandboxMode) || !strings.Contains(got, session.TypeApprovalDecided) {
		t.Fatalf("events %v", got)
	}
	q := ans.Asked()[0]
	if q.Mode != "danger-full-access" || q.Current != "workspace-write" || !q.Unconfined || q.Justification != "needs bash" ||
		q.Grant == nil || *q.Grant != (session.Grant{Tool: "bash", Mode: "danger-full-access", Command: "echo $0"}) {
		t.Fatalf("the request does not carry what a front end must show: %+v", q)
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
	env := &tools.Env{SessionID: "s1", Sink: &toolstest.Sink{}}
	t.Run("allowed for the session, the same command is not asked again", func(t *testing.T) {
		ans := toolstest.Answer(tools.AnswerAllowSession)
		svc := service(tools.PolicyAsk, ans)
		bash, _ := NewSandbox(testHost(), SandboxConfig{Workspace: ws}).Tool("bash")
		for i := 0; i < 2; i++ {
			if res := through(t, svc, env, bash, args); res.IsError {
				t.Fatalf("call %d: %v", i, res.Content)
			}
		}
		if len(ans.Asked()) != 1 {
			t.Fatalf("asked %d times, want 1", len(ans.Asked()))
		}
		other := map[string]any{"command": "echo HOST > x", "description": "d", "sandbox_permissions": "git-write", "justification": "commit the fix"}
		if res := through(t, svc, env, bash, other); res.IsError || len(ans.Asked()) != 2 {
			t.Fatalf("a grant for one command must not cover another: %v, asked %d", res.Content, len(ans.Asked()))
		}
		if res := through(t, service(tools.PolicyAsk, ans), env, bash, args); res.IsError || len(ans.Asked()) != 3 {
			t.Fatalf("another session must be asked itself: %v, asked %d", res.Content, len(ans.Asked()))
		}
	})
	t.Run("allowed once, the next call is asked again", func(t *testing.T) {
		ans := toolstest.Answer(tools.AnswerAllowOnce)
		svc := service(tools.PolicyAsk, ans)
		bash, _ := NewSandbox(testHost(), SandboxConfig{Workspace: ws}).Tool("bash")
		for i := 0; i < 2; i++ {
			if res := through(t, svc, env, bash, args); res.IsError {
				t.Fatal(res.Content)
			}
		}
		if len(ans.Asked()) != 2 {
			t.Fatalf("asked %d times, want 2", len(ans.Asked()))
		}
	})
	t.Run("under approval never it is denied without asking", func(t *testing.T) {
		ans := toolstest.Answer(tools.AnswerAllowSession)
		bash, _ := NewSandbox(testHost(), SandboxConfig{Workspace: ws}).Tool("bash")
		if res := through(t, service(tools.PolicyNever, ans), env, bash, args); resultCode(res) != tools.CodeDenied || len(ans.Asked()) != 0 {
			t.Fatalf("got %v (asked %d), want DENIED without asking", res.Content, len(ans.Asked()))
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
