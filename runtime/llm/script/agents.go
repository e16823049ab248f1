package script

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Agent lanes let one script drive a session and the subagents it starts
// (each child session loads the same file into a Provider of its own):
//
//	{"replies": [...],                                  the root session
//	 "agents": [{"match": "summarise a.go", "replies": [...]},
//	            {"match": "summarise b.go", "replies": [...]}]}
//
// A Provider picks its lane at its first step request: the first lane
// whose match occurs in the request's last user message (a subagent's
// prompt), else the top-level replies. Lanes keep children deterministic
// however their requests interleave. A match must not occur in the root
// session's first prompt.

// parseAgents reads the "agents" lanes: their replies, each marked with
// the lane's match.
func (p parser) parseAgents(raw json.RawMessage) ([]Reply, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, p.errf("agents", "must be an array of {\"match\", \"replies\"} lanes")
	}
	var out []Reply
	seen := map[string]bool{}
	for i, item := range items {
		at := fmt.Sprintf("agents[%d]", i)
		m, err := p.object(at, item, "match", "replies")
		if err != nil {
			return nil, err
		}
		var match string
		if err := p.str(at, m, "match", &match); err != nil {
			return nil, err
		}
		if strings.TrimSpace(match) == "" {
			return nil, p.errf(join(at, "match"), "is required: text that occurs in the subagent's prompt")
		}
		if seen[match] {
			return nil, p.errf(join(at, "match"), "%q is used by an earlier lane", match)
		}
		seen[match] = true
		lane, err := p.lane(at, m)
		if err != nil {
			return nil, err
		}
		for _, r := range lane {
			r.Lane = match
			out = append(out, r)
		}
	}
	return out, nil
}

func (p parser) lane(at string, m map[string]json.RawMessage) ([]Reply, error) {
	raw, ok := m["replies"]
	if !ok {
		return nil, p.errf(at, `needs a "replies" array`)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		return nil, p.errf(join(at, "replies"), "must be a non-empty array of replies")
	}
	out := make([]Reply, len(items))
	for i, item := range items {
		r, err := p.reply(fmt.Sprintf("%s.replies[%d]", at, i), i, item)
		if err != nil {
			return nil, err
		}
		if r.Summary {
			return nil, p.errf(fmt.Sprintf("%s.replies[%d].summary", at, i), "summary replies belong at the top level")
		}
		out[i] = r
	}
	return out, nil
}

// lanes groups the lane replies by match, in file order.
type lanes struct {
	order   []string
	replies map[string][]Reply
}

func (l *lanes) add(r Reply) {
	if l.replies == nil {
		l.replies = map[string][]Reply{}
	}
	if _, ok := l.replies[r.Lane]; !ok {
		l.order = append(l.order, r.Lane)
	}
	l.replies[r.Lane] = append(l.replies[r.Lane], r)
}

// pick is the lane of a provider whose first step request is req: the
// first lane whose match is in its last user message, else nil (the
// top-level replies).
func (l *lanes) pick(req llm.Request) []Reply {
	last := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			last = req.Messages[i].Content
			break
		}
	}
	for _, m := range l.order {
		if strings.Contains(last, m) {
			return l.replies[m]
		}
	}
	return nil
}
