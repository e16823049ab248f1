package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Bounds of what one update carries: a tool's output and a program's
// console are clipped (the full text stays in the session log).
const (
	outputMax  = 64 << 10
	consoleMax = 16 << 10
)

// Mode ids of session/set_mode.
const (
	ModeDefault = "default"
	ModePlan    = "plan"
)

// translator turns session events into ACP updates, in log order. Live,
// the answer streams from assistant/chunk; in a replay (session/load) it
// comes whole from assistant/message, with the user's own messages. It
// remembers which ACP tool call stands for each ptc call id, so a result
// updates the call it belongs to even when the model repeats or omits
// ids. It is safe for concurrent use (the asker looks calls up).
type translator struct {
	workspace string
	replay    bool

	mu sync.Mutex
	// active maps a ptc call id (a program's nested call: root/sub) to
	// the ACP id of its running call; used counts the ACP ids given.
	active map[string]string
	used   map[string]bool
	// calls are the announced calls by ACP id: name and diff, for the
	// permission request that may follow.
	calls map[string]callInfo
	// console is each running program's console so far, by its ACP id.
	console map[string]string
}

type callInfo struct {
	name  string
	title string
	kind  sdk.ToolKind
	diff  *sdk.ToolCallContent
	input any
}

func newTranslator(workspace string, replay bool) *translator {
	return &translator{workspace: workspace, replay: replay, active: map[string]string{}, used: map[string]bool{},
		calls: map[string]callInfo{}, console: map[string]string{}}
}

// translate maps one event; most events map to nothing.
func (t *translator) translate(e session.Event) []sdk.SessionUpdate {
	switch e.Type {
	case session.TypeAssistantChunk:
		if t.replay {
			return nil
		}
		var d session.AssistantChunk
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return chunkUpdate(d.Chunk)
	case session.TypeAssistantMessage:
		if !t.replay {
			return nil
		}
		var d session.AssistantMessage
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		var out []sdk.SessionUpdate
		if d.Message.Reasoning != "" {
			out = append(out, sdk.UpdateAgentThoughtText(d.Message.Reasoning))
		}
		if d.Message.Content != "" {
			out = append(out, sdk.UpdateAgentMessageText(d.Message.Content))
		}
		return out
	case session.TypeUserMessage:
		return t.userMessage(e)
	case session.TypeToolCall:
		var d session.ToolCall
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return []sdk.SessionUpdate{t.start(d.CallID, e.Seq, d.Name, d.Arguments, "", nestedNone)}
	case session.TypeToolResult:
		var d session.ToolResult
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return []sdk.SessionUpdate{t.finish(d.CallID, d.Name, blocksText(d.Content), d.IsError, d.Error)}
	case session.TypePtcDispatchStart:
		var d session.PtcDispatch
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return []sdk.SessionUpdate{t.start(d.RootCallID+"/"+d.SubCallID, e.Seq, d.Name, d.Arguments, d.RootCallID, nestedCall)}
	case session.TypePtcDispatch:
		var d session.PtcDispatch
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return []sdk.SessionUpdate{t.finish(d.RootCallID+"/"+d.SubCallID, d.Name, d.Content, d.IsError, d.Error)}
	case session.TypePtcLog:
		var d session.PtcLog
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return t.consoleLine(d)
	case session.TypeTodoWrite:
		var d session.TodoWrite
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return []sdk.SessionUpdate{planUpdate(d.Todos)}
	case session.TypePlanMode:
		var d session.PlanMode
		if json.Unmarshal(e.Data, &d) != nil {
			return nil
		}
		return []sdk.SessionUpdate{modeUpdate(d.Active)}
	}
	return nil
}

func chunkUpdate(c llm.Chunk) []sdk.SessionUpdate {
	if c.Text == "" {
		return nil
	}
	switch c.Kind {
	case llm.ChunkText:
		return []sdk.SessionUpdate{sdk.UpdateAgentMessageText(c.Text)}
	case llm.ChunkReasoning:
		return []sdk.SessionUpdate{sdk.UpdateAgentThoughtText(c.Text)}
	}
	return nil
}

// userMessage replays what the user typed; live, the client already
// shows it. Runtime notices, snapshots and summaries are not the user's.
func (t *translator) userMessage(e session.Event) []sdk.SessionUpdate {
	if !t.replay {
		return nil
	}
	var d session.UserMessage
	if json.Unmarshal(e.Data, &d) != nil || d.Source.Kind != "user" || d.Replaces != nil {
		return nil
	}
	text := blocksText(d.Content)
	if text == "" {
		return nil
	}
	return []sdk.SessionUpdate{sdk.UpdateUserMessageText(text)}
}

func blocksText(bs []session.Block) string {
	var b strings.Builder
	for _, x := range bs {
		if x.Type == "text" {
			b.WriteString(x.Text)
		}
	}
	return b.String()
}

type nesting bool

const (
	nestedNone nesting = false
	nestedCall nesting = true
)

// start announces a call. key is its ptc id, root the ACP id of the
// program that made it (nested calls only).
func (t *translator) start(key string, seq int64, name, raw, root string, nested nesting) sdk.SessionUpdate {
	a := parseArgs(raw)
	t.mu.Lock()
	defer t.mu.Unlock()
	id := key
	if key == "" || key == "/" || t.used[key] {
		id = fmt.Sprintf("%s#%d", key, seq)
	}
	t.used[id], t.active[key] = true, id
	info := callInfo{name: name, kind: kindOf(name), input: rawInput(raw, a)}
	if nested {
		info.title = nestedTitle(name, raw)
	} else {
		info.title = titleOf(name, a)
	}
	opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(info.kind), sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartRawInput(info.input)}
	if locs := locations(name, a, t.workspace); locs != nil {
		opts = append(opts, sdk.WithStartLocations(locs))
	}
	if d, ok := diffOf(name, a, t.workspace); ok {
		info.diff = &d
		opts = append(opts, sdk.WithStartContent([]sdk.ToolCallContent{d}))
	}
	t.calls[id] = info
	u := sdk.StartToolCall(sdk.ToolCallId(id), info.title, opts...)
	if nested {
		parent := root
		if p, ok := t.active[root]; ok {
			parent = p
		}
		u.ToolCall.Meta = map[string]any{"ptc": map[string]any{"parentToolCallId": parent}}
	}
	return u
}

// finish settles the call key stands for: completed or failed, with its
// output (a file change keeps its diff and adds only an error).
func (t *translator) finish(key, name, output string, isError bool, info *session.ErrorInfo) sdk.SessionUpdate {
	t.mu.Lock()
	id, ok := t.active[key]
	if !ok {
		id = key
	}
	delete(t.active, key)
	call := t.calls[id]
	console := t.console[id]
	delete(t.console, id)
	t.mu.Unlock()
	status := sdk.ToolCallStatusCompleted
	if isError {
		status = sdk.ToolCallStatusFailed
		if info != nil && info.Message != "" && !strings.Contains(output, info.Message) {
			output = strings.TrimSpace(info.Code + ": " + info.Message + "\n" + output)
		}
	}
	var content []sdk.ToolCallContent
	if call.diff != nil {
		content = append(content, *call.diff)
	}
	if console != "" {
		content = append(content, textContent(console))
	}
	if output != "" && (call.diff == nil || isError) {
		content = append(content, textContent(fence(output)))
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status)}
	if content != nil {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	return sdk.UpdateToolCall(sdk.ToolCallId(id), opts...)
}

// consoleLine adds a running program's console line to its call's
// content (the whole console so far: an update replaces the content).
func (t *translator) consoleLine(d session.PtcLog) []sdk.SessionUpdate {
	t.mu.Lock()
	id, ok := t.active[d.CallID]
	if !ok {
		t.mu.Unlock()
		return nil
	}
	c := t.console[id] + d.Text
	if !strings.HasSuffix(c, "\n") {
		c += "\n"
	}
	if len(c) > consoleMax {
		c = "…" + c[len(c)-consoleMax:]
	}
	t.console[id] = c
	t.mu.Unlock()
	return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateContent([]sdk.ToolCallContent{textContent(c)}))}
}

// lookup returns the ACP id and what was announced of the running call
// with ptc id callID (top-level, or a program's nested call).
func (t *translator) lookup(callID string) (string, callInfo, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.active[callID]; ok {
		return id, t.calls[id], true
	}
	for key, id := range t.active {
		if _, sub, ok := strings.Cut(key, "/"); ok && sub == callID {
			return id, t.calls[id], true
		}
	}
	return "", callInfo{}, false
}

func textContent(s string) sdk.ToolCallContent {
	return sdk.ToolContent(sdk.TextBlock(s))
}

// fence shows a tool's output verbatim (as an editor's markdown renders
// it), terminal controls made visible and the length bounded.
func fence(s string) string {
	s = clip.String(termsafe.String(s), outputMax)
	ticks := "```"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	return ticks + "\n" + strings.TrimRight(s, "\n") + "\n" + ticks
}

// planUpdate is the whole todo list as an ACP plan.
func planUpdate(todos []session.TodoItem) sdk.SessionUpdate {
	entries := make([]sdk.PlanEntry, 0, len(todos))
	for _, td := range todos {
		e := sdk.PlanEntry{Content: td.Content, Priority: sdk.PlanEntryPriorityMedium, Status: sdk.PlanEntryStatusPending}
		switch td.Priority {
		case "high":
			e.Priority = sdk.PlanEntryPriorityHigh
		case "low":
			e.Priority = sdk.PlanEntryPriorityLow
		}
		switch td.Status {
		case "in_progress":
			e.Status = sdk.PlanEntryStatusInProgress
		case "completed":
			e.Status = sdk.PlanEntryStatusCompleted
		}
		entries = append(entries, e)
	}
	return sdk.SessionUpdate{Plan: &sdk.SessionUpdatePlan{Entries: entries}}
}

func modeUpdate(plan bool) sdk.SessionUpdate {
	return sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: modeID(plan)}}
}

func modeID(plan bool) sdk.SessionModeId {
	if plan {
		return ModePlan
	}
	return ModeDefault
}

// decode reads an event's data into v, reporting whether it could.
func decode(e session.Event, v any) bool { return json.Unmarshal(e.Data, v) == nil }
