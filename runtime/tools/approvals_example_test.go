package tools_test

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// A front end that answers by id (a server with browser clients): it
// joins the session's service, hears each request open, and answers it;
// the second call is covered by the session grant, and a late answer to
// the first request is refused.
func ExampleApprovals() {
	svc := tools.NewApprovals(tools.PolicyAsk)
	leave := svc.Join()
	defer leave()
	svc.Subscribe(func(c tools.Change) {
		if !c.Closed {
			_ = svc.Answer(c.Request.ID, tools.Reply{Answer: tools.AnswerAllowSession, Via: "browser"})
		}
	})
	need := tools.Need{
		Question: tools.Question{Tool: "deploy", Args: `{"to":"staging"}`, Text: "Allow deploy?"},
		Grant:    &session.Grant{Tool: "deploy"},
	}
	for range 2 {
		d, err := svc.Decide(context.Background(), &tools.Env{}, need)
		fmt.Println(d.Answer, "by", d.By, err == nil)
	}
	fmt.Println(svc.Answer("r1", tools.Reply{Answer: tools.AnswerDeny}))
	fmt.Println(svc.Answer("r7", tools.Reply{Answer: tools.AnswerDeny}))
	// Output:
	// allow-session by user true
	// allow-session by session-grant true
	// request r1: the request was already answered
	// request "r7": no such request
}
