package session_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

func TestDeriveMessagesProjectsOnlyTheSurface(t *testing.T) {
	call := llm.ToolCall{ID: "c1", Name: "read", Arguments: `{"file_path":"go.mod"}`}
	s := (&script{t: t}).turnStart(1).stepStart(1, 1).
		add(session.TypeUserMessage, session.UserMessage{ID: "u1", Content: []session.Block{{Type: "text", Text: "line one"}, {Type: "image"}, {Type: "text", Text: "line two"}}}).
		add(session.TypeRequestHeader, session.RequestHeader{Reason: "initial", System: "sys"}).
		chunk(1, 1, "par").chunk(1, 1, "tial").
		assistant(1, 1, "Let me look.", call).
		call(1, 1, "c1", "read").
		add(session.TypePtcDispatch, session.PtcDispatch{SubCallID: "c1:ptc:1"}).
		result(1, 1, "c1", "read", "module x").
		add("x-vendor/thing", map[string]int{"a": 1}).
		stepEnd(1, 1).stepStart(1, 2).
		assistant(1, 2, ""). // empty, no calls: projects to nothing
		assistant(1, 2, "done").
		stepEnd(1, 2).turnEnd(1)
	got, err := session.DeriveMessages(s.events)
	must(t, err)
	want := []llm.Message{
		{Role: llm.RoleUser, Content: "line one\nline two"},
		{Role: llm.RoleAssistant, Content: "Let me look.", Reasoning: "thinking", ToolCalls: []llm.ToolCall{call}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "read", Content: "module x"},
		{Role: llm.RoleAssistant, Content: "done", Reasoning: "thinking"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("messages =\n%+v\nwant\n%+v", got, want)
	}
}

func TestDeriveMessagesNamesTheSeqOfABadSurfaceEvent(t *testing.T) {
	events := []session.Event{
		{Seq: 0, Type: session.TypeAssistantChunk, Data: json.RawMessage(`"not an object"`)},
		{Seq: 1, Type: session.TypeToolResult, Data: json.RawMessage(`{"content":7}`)},
	}
	_, err := session.DeriveMessages(events)
	if err == nil || !strings.Contains(err.Error(), "seq 1") {
		t.Fatalf("err = %v, want one naming seq 1 (and ignoring the chunk)", err)
	}
}

func TestDeriveMessagesInParallelEqualsOnePass(t *testing.T) {
	s := &script{t: t}
	for turn := 1; len(s.events) < 20_000; turn++ {
		s.completeTurn(turn)
	}
	got, err := session.DeriveMessages(s.events)
	must(t, err)
	var want []llm.Message
	for i := 0; i < len(s.events); i += 1000 { // below the parallel threshold
		part, err := session.DeriveMessages(s.events[i:min(i+1000, len(s.events))])
		must(t, err)
		want = append(want, part...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parallel projection differs: %d messages vs %d", len(got), len(want))
	}
	s.events[9_000].Type = session.TypeToolResult
	s.events[9_000].Data = json.RawMessage(`{"content":1}`)
	s.events[15_000].Type = session.TypeToolResult
	s.events[15_000].Data = json.RawMessage(`{"content":1}`)
	if _, err := session.DeriveMessages(s.events); err == nil || !strings.Contains(err.Error(), "seq 9000") {
		t.Fatalf("err = %v, want the earliest bad seq 9000", err)
	}
}
