package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/runtime/session"
)

func TestLookupAndPresentation(t *testing.T) {
	runCode := funcTool(RunCodeName, func(context.Context, Call) (any, error) { return "ran", nil })
	write := funcTool("write", func(context.Context, Call) (any, error) { return "wrote", nil })
	cases := []struct {
		name     string
		p        Presentation
		call     Call
		code     string
		contains string
	}{
		{"a typo suggests the closest names", PresentNative, Call{Name: "reed"}, CodeUnknownTool, "did you mean read?"},
		{"a far name lists the available tools", PresentNative, Call{Name: "zzzzzzzz"}, CodeUnknownTool, "available tools: read, run_code, write"},
		{"native reaches every tool directly", PresentNative, Call{Name: "write"}, "", "wrote"},
		{"ptc refuses a direct call with a run_code hint", PresentPTC, Call{Name: "read", Raw: `{"file_path":"a"}`}, CodeUnknownTool, "await tools.read({...})"},
		{"ptc hint comes before validation", PresentPTC, Call{Name: "read", Raw: `{`}, CodeUnknownTool, "run_code program"},
		{"ptc suggests only wire tools", PresentPTC, Call{Name: "run_cod"}, CodeUnknownTool, "did you mean run_code?"},
		{"ptc runs run_code directly", PresentPTC, Call{Name: RunCodeName}, "", "ran"},
		{"nested calls reach every other tool under ptc", PresentPTC, Call{Name: "read", Raw: `{"file_path":"a"}`, Nested: true}, "", "contents of a"},
		{"nested calls cannot reach run_code", PresentPTC, Call{Name: RunCodeName, Nested: true}, CodeUnknownTool, "unknown tool"},
		{"both puts everything on the wire", PresentBoth, Call{Name: "write"}, "", "wrote"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := NewRunner(mustRegistry(t, c.p, readTool(), runCode, write), RunnerConfig{})
			res := run.Dispatch(context.Background(), c.call)
			if code(res) != c.code || !strings.Contains(res.Content, c.contains) {
				t.Fatalf("got %q %q, want %q containing %q", code(res), res.Content, c.code, c.contains)
			}
		})
	}
}

func TestWireAndProgramSpecs(t *testing.T) {
	runCode := funcTool(RunCodeName, func(context.Context, Call) (any, error) { return nil, nil })
	write := funcTool("write", func(context.Context, Call) (any, error) { return nil, nil })
	names := func(specs []Spec) []string {
		var out []string
		for _, s := range specs {
			out = append(out, s.Name)
		}
		return out
	}
	for _, c := range []struct {
		p          Presentation
		wire, prog []string
	}{
		{PresentNative, []string{"read", "run_code", "write"}, []string{"read", "write"}},
		{PresentPTC, []string{"run_code"}, []string{"read", "write"}},
		{PresentBoth, []string{"read", "run_code", "write"}, []string{"read", "write"}},
	} {
		t.Run(string(c.p)+" shows the expected tools sorted by name", func(t *testing.T) {
			reg := mustRegistry(t, c.p, write, runCode, readTool())
			var wire []string
			for _, s := range reg.WireSpecs() {
				wire = append(wire, s.Name)
			}
			if !reflect.DeepEqual(wire, c.wire) || !reflect.DeepEqual(names(reg.WireToolSpecs()), c.wire) {
				t.Errorf("wire = %v, want %v", wire, c.wire)
			}
			if got := names(reg.ProgramSpecs()); !reflect.DeepEqual(got, c.prog) {
				t.Errorf("program = %v, want %v", got, c.prog)
			}
		})
	}
	if _, err := ParsePresentation("code"); err == nil {
		t.Error("unknown presentation accepted")
	}
}

func TestExecution(t *testing.T) {
	block := func(ctx context.Context, _ Call) (any, error) { <-ctx.Done(); return nil, ctx.Err() }
	deaf := func(context.Context, Call) (any, error) { time.Sleep(time.Hour); return nil, nil }
	cases := []struct {
		name     string
		tool     Tool
		ctx      func() context.Context
		code     string
		contains string
	}{
		{"a string value renders as-is", funcTool("t", func(context.Context, Call) (any, error) { return "plain\ntext", nil }), nil, "", "plain\ntext"},
		{"other values render as indented JSON", funcTool("t", func(context.Context, Call) (any, error) { return map[string]int{"n": 1}, nil }), nil, "", "{\n  \"n\": 1\n}"},
		{"a custom renderer is used", funcTool("t", func(context.Context, Call) (any, error) { return 7, nil }, WithRenderer(func(v any) string { return "seven" })), nil, "", "seven"},
		{"a tool error keeps its code", funcTool("t", func(context.Context, Call) (any, error) { return nil, Errorf(CodeSandboxDenied, "no way out") }), nil, CodeSandboxDenied, "Error: no way out"},
		{"a plain error becomes TOOL_FAILED", funcTool("t", func(context.Context, Call) (any, error) { return nil, errors.New("disk full") }), nil, CodeToolFailed, "Error: disk full"},
		{"a panic becomes TOOL_FAILED", funcTool("t", func(context.Context, Call) (any, error) { panic("boom") }), nil, CodeToolFailed, "panicked: boom"},
		{"a renderer panic becomes TOOL_FAILED", funcTool("t", func(context.Context, Call) (any, error) { return 1, nil }, WithRenderer(func(any) string { panic("render") })), nil, CodeToolFailed, "crashed: render"},
		{"a timeout stops a listening tool", funcTool("t", block, WithTimeout(time.Millisecond)), nil, CodeToolTimeout, "did not finish within 1ms"},
		{"a timeout stops a deaf tool", funcTool("t", deaf, WithTimeout(time.Millisecond)), nil, CodeToolTimeout, "did not finish"},
		{"cancellation aborts a running tool", funcTool("t", block), func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(time.Millisecond, cancel)
			return ctx
		}, CodeAborted, "cancelled before it finished"},
		{"a cancelled context never runs the tool", funcTool("t", deaf), func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, CodeAborted, "cancelled before it ran"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := NewRunner(mustRegistry(t, PresentNative, c.tool), RunnerConfig{})
			ctx := context.Background()
			if c.ctx != nil {
				ctx = c.ctx()
			}
			res := run.Dispatch(ctx, Call{ID: "c1", Name: "t"})
			if code(res) != c.code || !strings.Contains(res.Content, c.contains) || res.IsError != (c.code != "") {
				t.Fatalf("got %q %q, want %q containing %q", code(res), res.Content, c.code, c.contains)
			}
		})
	}
}

func TestOutputValidation(t *testing.T) {
	bad := New(readSpec, func(context.Context, Call, readIn) (map[string]any, error) {
		return map[string]any{"text": 3}, nil
	})
	run := NewRunner(mustRegistry(t, PresentNative, bad), RunnerConfig{})
	res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path":"a"}`})
	want := "Error: tool read returned a value that does not match its output schema: /text: expected string, got number"
	if code(res) != CodeInvalidToolOutput || res.Content != want {
		t.Fatalf("got %q %q", code(res), res.Content)
	}
	unencodable := New(readSpec, func(context.Context, Call, readIn) (any, error) { return func() {}, nil })
	run = NewRunner(mustRegistry(t, PresentNative, unencodable), RunnerConfig{})
	if res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path":"a"}`}); code(res) != CodeInvalidToolOutput {
		t.Fatalf("got %q %q", code(res), res.Content)
	}
}

func TestHooks(t *testing.T) {
	t.Run("a deny hook stops the call before it runs", func(t *testing.T) {
		ran := false
		tool := funcTool("t", func(context.Context, Call) (any, error) { ran = true; return "x", nil })
		s := &sink{}
		run := NewRunner(mustRegistry(t, PresentNative, tool), RunnerConfig{Env: &Env{Sink: s}})
		run.AddHook(Hook{Name: "guard", Pre: func(context.Context, Call) Verdict { return Verdict{Action: Deny, Reason: "not today"} }})
		res := run.Dispatch(context.Background(), Call{Name: "t"})
		if ran || code(res) != CodeDenied || !strings.Contains(res.Content, "policy hook guard: not today") {
			t.Fatalf("ran=%v %q", ran, res.Content)
		}
		if got := s.types(); !reflect.DeepEqual(got, []string{session.TypeApprovalDecided}) {
			t.Fatalf("events %v", got)
		}
	})
	t.Run("an ask hook sends the call to the answerer", func(t *testing.T) {
		a := &answerer{answers: []string{AnswerAllowOnce}}
		run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{
			Env:   &Env{Approvals: attended(PolicyAsk, a)},
			Hooks: []Hook{{Pre: func(context.Context, Call) Verdict { return Verdict{Action: Ask, Reason: "outside the workspace"} }}},
		})
		res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path":"/etc/passwd"}`})
		if res.IsError || len(a.asked) != 1 || !strings.Contains(a.asked[0].Text, "outside the workspace") {
			t.Fatalf("%q asked=%v", res.Content, a.asked)
		}
	})
	t.Run("post hooks annotate and replace in order", func(t *testing.T) {
		run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{Hooks: []Hook{
			{Post: func(_ context.Context, _ Call, o Outcome) Outcome { o.Notes = append(o.Notes, "note one"); return o }},
		}})
		run.AddHook(Hook{Post: func(_ context.Context, _ Call, o Outcome) Outcome {
			o.Value = readOut{Text: "replaced"}
			return o
		}})
		res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path":"a"}`})
		if res.IsError || res.Content != "{\n  \"text\": \"replaced\"\n}\n\nnote one" {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("a post hook replacement is still validated", func(t *testing.T) {
		run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{Hooks: []Hook{
			{Post: func(_ context.Context, _ Call, o Outcome) Outcome { o.Value = 5; return o }},
		}})
		if res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path":"a"}`}); code(res) != CodeInvalidToolOutput {
			t.Fatalf("%q", res.Content)
		}
	})
}

func TestApproval(t *testing.T) {
	needs := NeedsApproval(func(args json.RawMessage) bool { return strings.Contains(string(args), "secret") })
	asked, decided := session.TypeApprovalAsked, session.TypeApprovalDecided
	cases := []struct {
		name    string
		policy  Policy
		ans     *answerer
		raws    []string
		codes   []string
		events  []string
		message string
	}{
		{"calls that need no approval are not asked", PolicyAsk, &answerer{answers: []string{AnswerDeny}},
			[]string{`{"file_path":"a"}`}, []string{""}, nil, ""},
		{"allow once asks again next time", PolicyAsk, &answerer{answers: []string{AnswerAllowOnce, AnswerDeny}},
			[]string{`{"file_path":"secret"}`, `{"file_path":"secret"}`}, []string{"", CodeDenied},
			[]string{asked, decided, asked, decided}, "the user denied the call to read"},
		{"allow session stops asking for that tool", PolicyAsk, &answerer{answers: []string{AnswerAllowSession, AnswerDeny}},
			[]string{`{"file_path":"secret"}`, `{"file_path":"secret2"}`}, []string{"", ""},
			[]string{asked, decided, decided}, ""},
		{"an unknown answer is a denial", PolicyAsk, &answerer{answers: []string{"maybe"}},
			[]string{`{"file_path":"secret"}`}, []string{CodeDenied}, []string{asked, decided}, "the user denied"},
		{"policy never denies without asking", PolicyNever, &answerer{answers: []string{AnswerAllowOnce}},
			[]string{`{"file_path":"secret"}`}, []string{CodeDenied}, []string{decided}, "approval policy is never"},
		{"no answerer fails closed", PolicyAsk, nil,
			[]string{`{"file_path":"secret"}`}, []string{CodeDenied}, []string{decided}, "nobody can be asked in this run (no terminal); rerun with --approval never"},
		{"a headless answerer fails closed", PolicyAsk, &answerer{err: ErrNoAnswerer},
			[]string{`{"file_path":"secret"}`}, []string{CodeDenied}, []string{asked, decided}, "nobody can be asked"},
		{"a broken answerer fails closed", PolicyAsk, &answerer{err: errors.New("tty gone")},
			[]string{`{"file_path":"secret"}`}, []string{CodeDenied}, []string{asked, decided}, "tty gone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &sink{}
			var ans Answerer
			if c.ans != nil {
				ans = c.ans
			}
			run := NewRunner(mustRegistry(t, PresentNative, readTool(needs)), RunnerConfig{Approvals: attended(c.policy, ans), Env: &Env{Sink: s}})
			var last Result
			for i, raw := range c.raws {
				last = run.Dispatch(context.Background(), Call{ID: "c", Name: "read", Raw: raw})
				if code(last) != c.codes[i] {
					t.Fatalf("call %d: code %q, want %q (%s)", i, code(last), c.codes[i], last.Content)
				}
			}
			if !strings.Contains(last.Content, c.message) {
				t.Errorf("content %q lacks %q", last.Content, c.message)
			}
			if got := s.types(); !reflect.DeepEqual(got, c.events) {
				t.Errorf("events %v, want %v", got, c.events)
			}
		})
	}
	t.Run("the question names the tool and carries the raw arguments", func(t *testing.T) {
		a := &answerer{answers: []string{AnswerAllowOnce}}
		run := NewRunner(mustRegistry(t, PresentNative, readTool(needs)), RunnerConfig{})
		ctx := WithEnv(context.Background(), &Env{Approvals: attended(PolicyAsk, a)})
		run.Dispatch(ctx, Call{ID: "c9", Name: "read", Raw: `{"file_path":"secret"}`})
		q := a.asked[0]
		if q.Kind != KindApproval || q.ID != "r1" || q.Tool != "read" || q.CallID != "c9" || q.Args != `{"file_path":"secret"}` || len(q.Options) != 3 ||
			q.Grant == nil || *q.Grant != (session.Grant{Tool: "read"}) {
			t.Fatalf("%+v", q)
		}
	})
}

func TestEnvReachesTheTool(t *testing.T) {
	var got *Env
	tool := funcTool("t", func(ctx context.Context, _ Call) (any, error) { got = EnvFrom(ctx); return "", nil })
	run := NewRunner(mustRegistry(t, PresentNative, tool), RunnerConfig{Env: &Env{SessionID: "cfg", SpillDir: "/spill"}})
	run.Dispatch(WithEnv(context.Background(), &Env{SessionID: "ctx"}), Call{Name: "t"})
	if got.SessionID != "ctx" || got.SpillDir != "/spill" || got.Dispatcher != Dispatcher(run) {
		t.Fatalf("%+v", got)
	}
}

func TestLargeResults(t *testing.T) {
	var lines []string
	for i := 1; i <= 5000; i++ {
		lines = append(lines, strings.Repeat("x", 30)+" line "+string(rune('a'+i%26)))
	}
	big := strings.Join(lines, "\n")
	tool := funcTool("t", func(context.Context, Call) (any, error) { return big, nil })

	t.Run("big text is cut to head and tail with a pointer to the spill file", func(t *testing.T) {
		dir := t.TempDir()
		run := NewRunner(mustRegistry(t, PresentNative, tool), RunnerConfig{Env: &Env{SpillDir: dir}})
		res := run.Dispatch(context.Background(), Call{ID: "c1:ptc:2", Name: "t"})
		if len(res.Content) > DefaultMaxResultBytes || !strings.HasPrefix(res.Content, lines[0]) || !strings.HasSuffix(res.Content, lines[4999]) {
			t.Fatalf("len %d", len(res.Content))
		}
		want := filepath.Join(dir, "c1_ptc_2.txt")
		if res.SpillPath != want || !strings.Contains(res.Content, "saved at "+want) || !strings.Contains(res.Content, `"offset": `) {
			t.Fatalf("spill %q; note missing in %q", res.SpillPath, res.Content[29000:31000])
		}
		full, err := os.ReadFile(want)
		if err != nil || string(full) != big {
			t.Fatalf("spill file: %v", err)
		}
	})
	t.Run("the threshold is configurable and the note says when nothing was kept", func(t *testing.T) {
		run := NewRunner(mustRegistry(t, PresentNative, tool), RunnerConfig{MaxResultBytes: 1000})
		res := run.Dispatch(context.Background(), Call{ID: "c1", Name: "t"})
		if len(res.Content) > 1000 || res.SpillPath != "" || !strings.Contains(res.Content, "was not kept") {
			t.Fatalf("%d %q", len(res.Content), res.Content)
		}
	})
	t.Run("a negative threshold never truncates", func(t *testing.T) {
		run := NewRunner(mustRegistry(t, PresentNative, tool), RunnerConfig{MaxResultBytes: -1})
		if res := run.Dispatch(context.Background(), Call{Name: "t"}); res.Content != big {
			t.Fatal("truncated")
		}
	})
	t.Run("cuts never split a UTF-8 character", func(t *testing.T) {
		text := strings.Repeat("é", 5000)
		out, _ := truncate(text, 1001, "", "c")
		if !strings.HasPrefix(out, "é") || !utf8.ValidString(out) {
			t.Fatalf("%q", out)
		}
	})
}
