package acp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/runtime/session"
)

// FuzzPromptAndEvents: a prompt's content blocks as a client may send
// them decode to bounded text or a clear error, and any event data, as
// a hostile or damaged log may hold it, translates without a crash into
// updates that encode.
func FuzzPromptAndEvents(f *testing.F) {
	f.Add([]byte(`[{"type":"text","text":"hi"},{"type":"resource_link","name":"a","uri":"file:///a"}]`), "tool/call", []byte(`{"callId":"c","name":"edit","arguments":"{\"file_path\":\"../x\",\"old_string\":\"a\",\"new_string\":\"b\",\"offset\":1e30}"}`))
	f.Add([]byte(`[{"type":"resource","resource":{"uri":"file:///a","text":"body"}}]`), "tool/ptc-dispatch-start", []byte(`{"rootCallId":"r","subCallId":"s","name":"write","arguments":"{}"}`))
	f.Add([]byte(`[{"type":"image","data":"AA","mimeType":"image/png"}]`), "todo/write", []byte(`{"todos":[{"content":"x","status":"weird","priority":"urgent"}]}`))
	f.Add([]byte(`[]`), "tool/ptc-log", []byte(`{"callId":"r","text":"`+strings.Repeat("x", 100)+`"}`))
	f.Add([]byte(`null`), "assistant/message", []byte(`{"message":{"content":"a","reasoning":"b"}}`))
	f.Fuzz(func(t *testing.T, prompt []byte, typ string, data []byte) {
		var blocks []sdk.ContentBlock
		if json.Unmarshal(prompt, &blocks) == nil {
			if text, err := promptText(blocks); err == nil && (text == "" || len(text) > promptMax) {
				t.Fatalf("prompt text of %d bytes accepted", len(text))
			}
		}
		for _, replay := range []bool{false, true} {
			tr := newTranslator("/ws", replay)
			tr.translate(session.Event{Type: "tool/call", Data: json.RawMessage(`{"callId":"r","name":"run_code","arguments":"{}"}`)})
			for _, u := range tr.translate(session.Event{Type: typ, Data: json.RawMessage(data)}) {
				if _, err := json.Marshal(u); err != nil {
					t.Fatalf("update %+v does not encode: %v", u, err)
				}
			}
		}
	})
}
