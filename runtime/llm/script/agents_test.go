package script

import (
	"context"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
)

const laneScript = `{"replies": [{"text": "root 1"}, {"text": "root 2"}],
 "agents": [{"match": "count the words", "replies": [{"text": "child A"}]},
            {"match": "list the files", "replies": [{"text": "child B 1"}, {"text": "child B 2"}]}]}`

func request(last string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "Runtime context: …"}, {Role: llm.RoleUser, Content: last}}}
}

func TestAgentLanes(t *testing.T) {
	replies, err := Parse("lanes.json", []byte(laneScript))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, first string
		want        []string
	}{
		{"a child whose prompt names a lane gets that lane", "please list the files under src", []string{"child B 1", "child B 2"}},
		{"another child gets its own", "count the words in a.txt", []string{"child A"}},
		{"the root session gets the top-level replies", "fix the bug", []string{"root 1", "root 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newProvider("lanes.json", replies)
			for i, w := range c.want {
				req := request(c.first)
				if i > 0 {
					req = request("a later message that names no lane")
				}
				resp, err := p.Stream(context.Background(), req, nil)
				if err != nil || resp.Message.Content != w {
					t.Fatalf("reply %d: %v %+v, want %q", i, err, resp, w)
				}
			}
			if _, err := p.Stream(context.Background(), request(c.first), nil); err == nil || !strings.Contains(err.Error(), "all were used") {
				t.Fatalf("the lane must run out: %v", err)
			}
		})
	}
}

func TestAgentLaneErrors(t *testing.T) {
	for _, c := range []struct{ name, script, want string }{
		{"a lane without match", `{"replies":[{"text":"x"}],"agents":[{"replies":[{"text":"y"}]}]}`, "agents[0].match: is required"},
		{"a lane without replies", `{"replies":[{"text":"x"}],"agents":[{"match":"m"}]}`, `agents[0]: needs a "replies" array`},
		{"two lanes with one match", `{"replies":[{"text":"x"}],"agents":[{"match":"m","replies":[{"text":"y"}]},{"match":"m","replies":[{"text":"z"}]}]}`, "used by an earlier lane"},
		{"a typo in a lane", `{"replies":[{"text":"x"}],"agents":[{"match":"m","reply":[]}]}`, "agents[0].reply: unknown field"},
		{"a summary reply in a lane", `{"replies":[{"text":"x"}],"agents":[{"match":"m","replies":[{"summary":true,"text":"s"}]}]}`, "summary replies belong at the top level"},
		{"agents that is not an array", `{"replies":[{"text":"x"}],"agents":{}}`, "agents: must be an array"},
	} {
		t.Run(c.name+" is reported", func(t *testing.T) {
			if _, err := Parse("f.json", []byte(c.script)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
}
