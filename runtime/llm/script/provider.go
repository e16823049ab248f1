package script

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/internal/pieces"
)

var _ llm.Provider = (*Provider)(nil)

// Provider replays scripted replies, one per Stream call. It is safe for
// concurrent use; calls consume replies in arrival order.
type Provider struct {
	name      string
	replies   []Reply // answers to step requests
	summaries []Reply // answers to summary requests
	titles    []Reply // answers to title requests
	lanes     lanes   // the subagents' replies (agents.go)

	mu          sync.Mutex
	used, sused int
	tused       int
	bound       bool // the lane was picked (at the first step request)
}

// newProvider splits replies into step and summary answers.
func newProvider(name string, replies []Reply) *Provider {
	p := &Provider{name: name}
	for _, r := range replies {
		if r.Lane != "" {
			p.lanes.add(r)
			continue
		}
		if r.Title {
			p.titles = append(p.titles, r)
		} else if r.Summary {
			p.summaries = append(p.summaries, r)
		} else {
			p.replies = append(p.replies, r)
		}
	}
	return p
}

// Load reads and parses the script at path.
func Load(path string) (*Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the model script: %w", err)
	}
	replies, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	return newProvider(path, replies), nil
}

// New builds a provider from replies, for tests. Tool calls without an ID
// get call_<reply>_<n> as in a file.
func New(replies []Reply) *Provider {
	own := make([]Reply, len(replies))
	for i, r := range replies {
		r.ToolCalls = append([]llm.ToolCall(nil), r.ToolCalls...)
		for n := range r.ToolCalls {
			if r.ToolCalls[n].ID == "" {
				r.ToolCalls[n].ID = defaultCallID(i, n)
			}
		}
		own[i] = r
	}
	return newProvider("(in memory)", own)
}

// Name is "script".
func (p *Provider) Name() string { return "script" }

// Remaining is how many replies are left (a repeating summary reply is
// never used up), so a test can check a script was used up exactly.
func (p *Provider) Remaining() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.replies) - p.used
	for _, side := range [][]Reply{p.summaries[p.sused:], p.titles[p.tused:]} {
		for _, r := range side {
			if !r.Repeat {
				n++
			}
		}
	}
	return n
}

// take consumes the reply for req: the next summary reply for a summary
// request, the next title reply for a title request, the next step reply
// for any other.
func (p *Provider) take(req llm.Request) (Reply, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if llm.IsSummaryRequest(req) {
		if p.sused >= len(p.summaries) {
			return Reply{}, &llm.Error{Kind: llm.ErrScript,
				Message: fmt.Sprintf("the script %s has no reply left for a summary request (the context is being compacted); "+
					`add a top-level "summary" reply, or replies marked "summary": true`, p.name)}
		}
		r := p.summaries[p.sused]
		if !r.Repeat {
			p.sused++
		}
		return r, nil
	}
	if llm.IsTitleRequest(req) {
		if p.tused >= len(p.titles) {
			return Reply{}, &llm.Error{Kind: llm.ErrScript,
				Message: fmt.Sprintf("the script %s has no reply for a title request; the session keeps its first prompt's line "+
					`(add a top-level "title" reply, or replies marked "title": true)`, p.name)}
		}
		r := p.titles[p.tused]
		if !r.Repeat {
			p.tused++
		}
		return r, nil
	}
	if !p.bound {
		p.bound = true
		if lane := p.lanes.pick(req); lane != nil {
			p.replies = lane
		}
	}
	if p.used >= len(p.replies) {
		return Reply{}, &llm.Error{Kind: llm.ErrScript,
			Message: fmt.Sprintf("the script %s has %d replies and all were used; add replies to it for the extra model requests", p.name, len(p.replies))}
	}
	r := p.replies[p.used]
	p.used++
	return r, nil
}

// Stream consumes the next reply and streams it through onChunk: reasoning
// and text in a few pieces, each tool call as a first delta with id and
// name followed by argument fragments. The usage is an estimate of about
// four bytes a token (request JSON in, streamed bytes out), so token
// comparisons between presets stay meaningful without a real model.
func (p *Provider) Stream(ctx context.Context, req llm.Request, onChunk func(llm.Chunk)) (*llm.Response, error) {
	if onChunk == nil {
		onChunk = func(llm.Chunk) {}
	}
	r, err := p.take(req)
	if err != nil {
		return nil, err
	}
	if r.Error != nil {
		if err := llm.Sleep(ctx, r.Delay); err != nil {
			return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant}, Finish: llm.FinishAborted}, err
		}
		return nil, r.Error.asError()
	}
	if r.Text == "" && len(r.ToolCalls) == 0 && r.Finish != "length" {
		return nil, &llm.Error{Kind: llm.ErrEmpty, Message: "the scripted reply has no text and no tool call"}
	}
	var text, reasoning strings.Builder
	for i, c := range chunks(r) {
		if err := ctx.Err(); err != nil {
			return aborted(text.String(), reasoning.String()), err
		}
		if i > 0 {
			if err := llm.Sleep(ctx, r.Delay); err != nil {
				return aborted(text.String(), reasoning.String()), err
			}
		}
		switch c.Kind {
		case llm.ChunkText:
			text.WriteString(c.Text)
		case llm.ChunkReasoning:
			reasoning.WriteString(c.Text)
		}
		onChunk(c)
	}
	resp := &llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Content: r.Text, Reasoning: r.Reasoning, ToolCalls: r.ToolCalls},
		Finish:  finish(r),
		Usage:   estimate(req, r),
	}
	return resp, nil
}

func finish(r Reply) llm.FinishReason {
	switch {
	case r.Finish == "length":
		return llm.FinishMaxTokens
	case len(r.ToolCalls) > 0:
		return llm.FinishToolCalls
	}
	return llm.FinishStop
}

// chunks is the reply as a realistic delta sequence.
func chunks(r Reply) []llm.Chunk {
	var out []llm.Chunk
	for _, s := range pieces.Split(r.Reasoning, 2) {
		out = append(out, llm.Chunk{Kind: llm.ChunkReasoning, Text: s})
	}
	for _, s := range pieces.Split(r.Text, 3) {
		out = append(out, llm.Chunk{Kind: llm.ChunkText, Text: s})
	}
	for i, c := range r.ToolCalls {
		out = append(out, llm.Chunk{Kind: llm.ChunkToolCall, Index: i, ID: c.ID, Name: c.Name})
		for _, s := range pieces.Split(c.Arguments, 3) {
			out = append(out, llm.Chunk{Kind: llm.ChunkToolCall, Index: i, ArgsDelta: s})
		}
	}
	return out
}

// aborted keeps the streamed text and drops tool calls, as the OpenAI
// adapter does: a call cut off mid-arguments cannot be trusted.
func aborted(text, reasoning string) *llm.Response {
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: text, Reasoning: reasoning}, Finish: llm.FinishAborted}
}

func estimate(req llm.Request, r Reply) llm.Usage {
	in, _ := json.Marshal(req)
	out := len(r.Text) + len(r.Reasoning)
	for _, c := range r.ToolCalls {
		out += len(c.Name) + len(c.Arguments)
	}
	return llm.Usage{InputTokens: tokens(len(in)), OutputTokens: tokens(out), ReasoningTokens: tokens(len(r.Reasoning))}
}

func tokens(bytes int) int { return (bytes + 3) / 4 }

func (f *Failure) asError() *llm.Error {
	msg := f.Message
	if msg == "" {
		msg = fmt.Sprintf("scripted %s failure", f.Kind)
	}
	return &llm.Error{Kind: f.Kind, Status: f.Status, RetryAfter: f.RetryAfter, Message: msg}
}
