package script

import (
	"context"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
)

func summaryRequest() llm.Request {
	return llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "task"},
		{Role: llm.RoleUser, Content: llm.SummaryRequestTag + "\nsummarise"},
	}}
}

func TestSummaryRequestsTakeSummaryReplies(t *testing.T) {
	replies, err := Parse("s.json", []byte(`{"replies": [
		{"text": "step one"},
		{"summary": true, "text": "first summary"},
		{"text": "step two"}],
	 "summary": {"text": "any later summary"}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := New(replies)
	step := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "task"}}}
	order := []struct {
		req  llm.Request
		want string
	}{
		{summaryRequest(), "first summary"},
		{step, "step one"},
		{summaryRequest(), "any later summary"},
		{step, "step two"},
		{summaryRequest(), "any later summary"},
	}
	for i, o := range order {
		resp, err := p.Stream(context.Background(), o.req, nil)
		if err != nil || resp.Message.Content != o.want {
			t.Fatalf("request %d: %v %+v, want %q", i, err, resp, o.want)
		}
	}
	if n := p.Remaining(); n != 0 {
		t.Fatalf("remaining %d, want 0 (the repeating summary does not count)", n)
	}
}

func TestSummaryRequestWithoutSummaryRepliesSaysWhatToAdd(t *testing.T) {
	p := New([]Reply{{Text: "a step"}})
	_, err := p.Stream(context.Background(), summaryRequest(), nil)
	if err == nil || !strings.Contains(err.Error(), `add a top-level "summary" reply`) {
		t.Fatalf("err = %v", err)
	}
	if p.Remaining() != 1 {
		t.Fatal("the step reply was consumed by the summary request")
	}
}

func TestParseSummaryErrors(t *testing.T) {
	for name, src := range map[string]string{
		"a summary rule needs text":       `{"replies": [{"text": "a"}], "summary": {"tool_calls": [{"name": "x"}]}}`,
		"a summary rule cannot be a fail": `{"replies": [{"text": "a"}], "summary": {"error": {"status": 500}}}`,
		"the summary mark is a boolean":   `{"replies": [{"text": "a", "summary": "yes"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse("s.json", []byte(src)); err == nil || !strings.Contains(err.Error(), "summary") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestAScriptCanRefuseARequestAsTooLong(t *testing.T) {
	replies, err := Parse("s.json", []byte(`{"replies": [{"error": {"kind": "context-overflow", "status": 400, "message": "maximum context length is 32768 tokens"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(replies).Stream(context.Background(), llm.Request{}, nil)
	if e := llm.AsError(err); e.Kind != llm.ErrContextOverflow || e.Retryable() {
		t.Fatalf("err = %+v", e)
	}
}
