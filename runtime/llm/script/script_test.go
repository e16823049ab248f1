package script

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
)

func TestParseErrorsNameFileAndPath(t *testing.T) {
	tests := []struct {
		name string
		json string
		want string
	}{
		{"broken JSON reports line and column", "{\n  \"replies\": [\n    {\"text\": }\n  ]\n}", "s.json: invalid JSON at line 3, column 14"},
		{"the top level must be an object", `[1]`, "s.json: must be a JSON object"},
		{"replies are required", `{}`, `needs a "replies" array`},
		{"replies must be an array", `{"replies": {}}`, "replies: must be an array"},
		{"replies must not be empty", `{"replies": []}`, "replies: must contain at least one reply"},
		{"a reply must be an object", `{"replies": ["hi"]}`, "replies[0]: must be a JSON object"},
		{"unknown fields are typos", `{"replies": [{"txt": "hi"}]}`, "replies[0].txt: unknown field"},
		{"text must be a string", `{"replies": [{"text": 3}]}`, "replies[0].text: must be a string"},
		{"finish is stop or length", `{"replies": [{"text": "a", "finish": "tool_calls"}]}`, `replies[0].finish: must be "stop" or "length"`},
		{"delay must be a whole number", `{"replies": [{"text": "a", "delay_ms": -1}]}`, "replies[0].delay_ms: must be a whole number"},
		{"tool calls need a name", `{"replies": [{"text": "a"}, {"tool_calls": [{"arguments": {}}]}]}`, "replies[1].tool_calls[0].name: is required"},
		{"arguments are an object or a string", `{"replies": [{"tool_calls": [{"name": "x", "arguments": [1]}]}]}`, "replies[0].tool_calls[0].arguments: must be an object or a string"},
		{"an error needs a status or a kind", `{"replies": [{"error": {"message": "x"}}]}`, `replies[0].error: needs a "status"`},
		{"an error kind must be known", `{"replies": [{"error": {"kind": "sad"}}]}`, `replies[0].error.kind: unknown kind "sad"`},
		{"an error reply carries nothing else", `{"replies": [{"text": "a", "error": {"status": 500}}]}`, "replies[0].error: an error reply cannot also carry"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.json", []byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to contain %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "script s.json") {
				t.Fatalf("err %q does not name the file", err)
			}
		})
	}
}

func TestParseReplies(t *testing.T) {
	replies, err := Parse("s.json", []byte(`{"replies": [
		{"reasoning": "r", "text": "t", "tool_calls": [
			{"name": "bash", "arguments": {"command": "ls",  "description": "list"}},
			{"id": "mine", "name": "read", "arguments": "{not json"},
			{"name": "glob"}], "delay_ms": 5},
		{"error": {"status": 429, "message": "slow", "retry_after_ms": 20}},
		{"error": {"kind": "timeout"}},
		{"text": "cut", "finish": "length"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	calls := replies[0].ToolCalls
	if calls[0] != (llm.ToolCall{ID: "call_1_1", Name: "bash", Arguments: `{"command":"ls","description":"list"}`}) ||
		calls[1] != (llm.ToolCall{ID: "mine", Name: "read", Arguments: "{not json"}) ||
		calls[2] != (llm.ToolCall{ID: "call_1_3", Name: "glob", Arguments: "{}"}) {
		t.Fatalf("tool calls %+v", calls)
	}
	if replies[0].Delay != 5*time.Millisecond {
		t.Fatalf("delay %v", replies[0].Delay)
	}
	if f := replies[1].Error; f == nil || f.Kind != llm.ErrRateLimit || f.Status != 429 || f.RetryAfter != 20*time.Millisecond {
		t.Fatalf("429 failure %+v", f)
	}
	if f := replies[2].Error; f == nil || f.Kind != llm.ErrTimeout {
		t.Fatalf("timeout failure %+v", f)
	}
	if replies[3].Finish != "length" {
		t.Fatalf("finish %q", replies[3].Finish)
	}
}

func TestStreamReplaysReplies(t *testing.T) {
	p := New([]Reply{
		{Reasoning: "think first", Text: "I will list files.", ToolCalls: []llm.ToolCall{{Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Error: &Failure{Status: 503, Kind: llm.ErrServer, Message: "busy"}},
		{Text: "done"},
	})
	var chunks []llm.Chunk
	resp, err := p.Stream(context.Background(), llm.Request{System: "sys"}, func(c llm.Chunk) { chunks = append(chunks, c) })
	if err != nil {
		t.Fatal(err)
	}

	t.Run("the first reply streams reasoning, text and split arguments", func(t *testing.T) {
		var text, reasoning, args string
		var callStarts int
		for _, c := range chunks {
			switch c.Kind {
			case llm.ChunkText:
				text += c.Text
			case llm.ChunkReasoning:
				reasoning += c.Text
			case llm.ChunkToolCall:
				args += c.ArgsDelta
				if c.ID != "" {
					callStarts++
					if c.ID != "call_1_1" || c.Name != "bash" || c.ArgsDelta != "" {
						t.Fatalf("first tool delta %+v", c)
					}
				}
			}
		}
		if text != "I will list files." || reasoning != "think first" || args != `{"command":"ls"}` || callStarts != 1 || len(chunks) < 8 {
			t.Fatalf("chunks %+v", chunks)
		}
		if resp.Finish != llm.FinishToolCalls || resp.Message.ToolCalls[0].ID != "call_1_1" || resp.Usage.InputTokens == 0 {
			t.Fatalf("response %+v", resp)
		}
	})

	t.Run("an error reply is one failed attempt", func(t *testing.T) {
		_, err := p.Stream(context.Background(), llm.Request{}, nil)
		e := llm.AsError(err)
		if e.Kind != llm.ErrServer || e.Status != 503 || e.Message != "busy" || !e.Retryable() {
			t.Fatalf("got %+v", e)
		}
	})

	t.Run("the next call gets the next reply", func(t *testing.T) {
		resp, err := p.Stream(context.Background(), llm.Request{}, nil)
		if err != nil || resp.Message.Content != "done" || resp.Finish != llm.FinishStop {
			t.Fatalf("got %+v, %v", resp, err)
		}
	})

	t.Run("running out of replies is a script error", func(t *testing.T) {
		_, err := p.Stream(context.Background(), llm.Request{}, nil)
		e := llm.AsError(err)
		if e.Kind != llm.ErrScript || e.Retryable() || !strings.Contains(e.Message, "has 3 replies and all were used") {
			t.Fatalf("got %+v", e)
		}
	})
}

func TestStreamEmptyAndLengthReplies(t *testing.T) {
	p := New([]Reply{{}, {Reasoning: "only thinking"}, {Text: "cut o", Finish: "length"}})
	for _, kind := range []llm.ErrorKind{llm.ErrEmpty, llm.ErrEmpty} {
		if _, err := p.Stream(context.Background(), llm.Request{}, nil); llm.AsError(err).Kind != kind {
			t.Fatalf("err %v, want %s", err, kind)
		}
	}
	resp, err := p.Stream(context.Background(), llm.Request{}, nil)
	if err != nil || resp.Finish != llm.FinishMaxTokens {
		t.Fatalf("got %+v, %v", resp, err)
	}
}

func TestStreamCancelKeepsPartialText(t *testing.T) {
	p := New([]Reply{{Text: "one two three four five six", ToolCalls: []llm.ToolCall{{Name: "bash", Arguments: "{}"}}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen string
	resp, err := p.Stream(ctx, llm.Request{}, func(c llm.Chunk) {
		seen += c.Text
		if c.Kind == llm.ChunkText {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || resp.Finish != llm.FinishAborted || resp.Message.Content != seen || seen == "" || len(resp.Message.ToolCalls) != 0 {
		t.Fatalf("got %+v, %v (seen %q)", resp, err, seen)
	}
}

func TestShippedExamplesLoad(t *testing.T) {
	files, err := filepath.Glob("../../../examples/*.json")
	if err != nil || len(files) < 2 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f)+" parses and replays", func(t *testing.T) {
			p, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			for p.Remaining() > 0 {
				if _, err := p.Stream(context.Background(), llm.Request{}, nil); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.json"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.json") {
		t.Fatalf("err %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"replies":[{"text":"hi","tool_calls":[{"name":"x","arguments":{"a":1}}]}]}`))
	f.Add([]byte(`{"replies":[{"error":{"status":429,"retry_after_ms":5}},{"reasoning":"r","finish":"length"}]}`))
	f.Add([]byte(`{"replies":[{"tool_calls":[{"name":"x","arguments":"{bad"}]}]}`))
	f.Add([]byte("{\n\"replies\": [ {\"text\": }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		replies, err := Parse("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "script fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for i := range replies {
			replies[i].Delay = 0
		}
		p := New(replies)
		for range replies {
			resp, err := p.Stream(context.Background(), llm.Request{}, nil)
			if err == nil && resp == nil {
				t.Fatal("nil response without error")
			}
		}
	})
}
