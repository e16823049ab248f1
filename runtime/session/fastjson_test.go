package session

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// slowProject is the projection by encoding/json alone.
func slowProject(typ string, data []byte) (llm.Message, error) {
	switch typ {
	case TypeUserMessage:
		var d struct {
			Content  []Block      `json:"content"`
			Replaces *SurfaceSpan `json:"replaces"`
		}
		err := json.Unmarshal(data, &d)
		m := llm.Message{Role: llm.RoleUser, Content: joinText(d.Content)}
		if d.Replaces != nil {
			m.Name = fmt.Sprintf("replaces %d..%d", d.Replaces.From, d.Replaces.To)
		}
		return m, err
	case TypeAssistantMessage:
		var d struct {
			Message llm.Message `json:"message"`
		}
		err := json.Unmarshal(data, &d)
		if d.Message.Content == "" && len(d.Message.ToolCalls) == 0 {
			return llm.Message{}, err
		}
		return llm.Message{Role: llm.RoleAssistant, Content: d.Message.Content, Reasoning: d.Message.Reasoning, ToolCalls: d.Message.ToolCalls}, err
	default:
		var d struct {
			CallID  string  `json:"callId"`
			Name    string  `json:"name"`
			Content []Block `json:"content"`
		}
		err := json.Unmarshal(data, &d)
		return llm.Message{Role: llm.RoleTool, ToolCallID: d.CallID, Name: d.Name, Content: joinText(d.Content)}, err
	}
}

var fastProject = map[string]func([]byte) (llm.Message, error){
	TypeUserMessage: func(data []byte) (llm.Message, error) {
		// The span travels beside the message; fold it in so the
		// comparison covers it (slowProject does the same).
		m, span, err := projectUser(data)
		if span != nil {
			m.Name = fmt.Sprintf("replaces %d..%d", span.From, span.To)
		}
		return m, err
	},
	TypeAssistantMessage: projectAssistant, TypeToolResult: projectResult,
}

func FuzzFastSurfaceAgreesWithEncodingJSON(f *testing.F) {
	seeds := []string{
		`{"id":"u","content":[{"type":"text","text":"hi \u00e9\n"}],"source":{"kind":"user"}}`,
		`{"turn":1,"step":2,"message":{"role":"assistant","content":"ok","reasoning":"r","toolCalls":[{"id":"c","name":"read","arguments":"{\"a\":1}"}]},"usage":{"input":3}}`,
		`{"message":{"content":"x","toolCalls":[]}}`,
		`{"callId":"c","name":"read","content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}],"isError":true,"error":{"code":"X","message":"m"}}`,
		`{"Content":[{"type":"text","text":"case"}]}`,
		`{"content":[{"type":"text","text":"a"}],"content":[{"text":"b"}]}`,
		`{"content":[{"type":"text","text":"sum"}],"replaces":{"from":3,"to":9}}`, `{"content":[],"replaces":null}`,
		`{"content":null}`, `null`, `{"content":[1]}`, `{"x":[1e5,-0.5,true,false,null,{}]}`,
		"{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}", `{"content":[{"text":"\ud83d\ude00"}]}`,
	}
	for _, s := range seeds {
		for _, typ := range []string{TypeUserMessage, TypeAssistantMessage, TypeToolResult} {
			f.Add(typ, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, typ string, data []byte) {
		project, ok := fastProject[typ]
		if !ok {
			return
		}
		want, werr := slowProject(typ, data)
		got, gerr := project(data)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("errors differ: encoding/json %v, fast %v", werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("projection differs:\nfast %#v\njson %#v", got, want)
		}
	})
}
