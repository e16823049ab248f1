package agent

import (
	"context"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestRunInputRunsItsInputFirstWithItsSource(t *testing.T) {
	log := &memLog{}
	a := newTestAgent(t, &fakeProvider{replies: []reply{{text: "round done"}, {text: "user answered"}}}, log, nil)
	a.Inbox().Followup("a question typed meanwhile")
	src := session.Source{Kind: "plugin", Name: "goal", Form: "round"}
	out, err := a.RunInput(context.Background(), Input{Text: "round 1", Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if out.Turn != 2 || out.Text != "user answered" {
		t.Fatalf("the queued follow-up must run after the input, as the last turn: %+v", out)
	}
	msgs := sessiontest.OfType(log.Events(), session.TypeUserMessage)
	first, second := sessiontest.Decode[session.UserMessage](t, msgs[0]), sessiontest.Decode[session.UserMessage](t, msgs[1])
	if first.Content[0].Text != "round 1" || first.Source != src || second.Source.Kind != "user" {
		t.Fatalf("%+v / %+v", first, second)
	}
	if _, ran, err := a.RunQueued(context.Background()); ran || err != nil {
		t.Fatalf("nothing was queued, yet ran=%v err=%v", ran, err)
	}
}
