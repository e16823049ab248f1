package serve

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// answerStale answers a request that was pending when an earlier ptc
// serve (or a killed ptc) stopped: nothing waits on it any more, so the
// session is opened (which repairs the cut turn: the waiting call gets
// its synthetic result) and continued with a turn that tells the model
// what the user answered. An allowed call, or an approved plan, is
// pre-answered for the model's repeat of the same call, which then runs
// without asking again.
func (s *Server) answerStale(ctx context.Context, id, pid string, b answerBody) (string, error) {
	s.staleMu.Lock()
	defer s.staleMu.Unlock()
	if won, ok := s.staleWon[id+"/"+pid]; ok {
		return "", &tools.AnsweredError{ID: pid, Reply: tools.Reply{Answer: won}}
	}
	if sv := s.served(id); sv != nil {
		// Resumed since (by a prompt): the request closed with the
		// repaired turn.
		return "", sv.sess.Approvals().Answer(pid, tools.Reply{})
	}
	ld, err := s.cat().Load(ctx, id)
	if err != nil {
		return "", err
	}
	set, err := session.CurrentSettings(ld.Header, ld.Events)
	if err != nil {
		return "", err
	}
	var p *Pending
	for _, x := range staleRequests(ld.Events, set.Workspace, set.Sandbox) {
		if x.ID == pid {
			p = &x
			break
		}
	}
	if p == nil {
		return "", tools.ErrNoRequest
	}
	ans, err := normalAnswer(p.Kind, b)
	if err != nil {
		return "", badAnswer{err}
	}
	sv, err := s.acquire(ctx, id)
	if err != nil {
		return "", err
	}
	s.staleWon[id+"/"+pid] = ans
	if ans == tools.AnswerAllowOnce || ans == tools.AnswerAllowSession || ans == tools.AnswerApprovePlan {
		sv.sess.Approvals().Preanswer(p.Tool, p.Arguments, tools.Reply{Answer: ans, Via: "serve"})
	}
	s.prompt(sv, continuation(*p, ans))
	return ans, nil
}

// wonStale returns the answer that resumed session id from its stale
// request pid, if one did.
func (s *Server) wonStale(id, pid string) (string, bool) {
	s.staleMu.Lock()
	defer s.staleMu.Unlock()
	ans, ok := s.staleWon[id+"/"+pid]
	return ans, ok
}

// continuation is the input of the turn that resumes a session after a
// stale request was answered: what happened and what the user said.
func continuation(p Pending, ans string) string {
	var b strings.Builder
	b.WriteString("(ptc serve restarted while ")
	switch p.Kind {
	case tools.KindApproval:
		fmt.Fprintf(&b, "your call to %s was waiting for the user's approval, so it did not run.) ", p.Tool)
		switch ans {
		case tools.AnswerDeny:
			b.WriteString("The user has now denied it: do not retry it unchanged; ask the user what to do instead.")
		case tools.AnswerAllowSession:
			b.WriteString("The user has now allowed it for the rest of the session: make the same call again to run it.")
		default:
			b.WriteString("The user has now allowed it once: make the same call again to run it.")
		}
	case tools.KindPlan:
		b.WriteString("your plan was waiting for the user's approval.) ")
		if ans == tools.AnswerApprovePlan {
			b.WriteString("The user has approved it: call exit_plan_mode again with the same plan to leave plan mode and start.")
		} else if ans == tools.AnswerKeepPlanning {
			b.WriteString("The user wants you to keep planning.")
		} else {
			b.WriteString("The user wants changes to the plan: " + ans)
		}
	default:
		fmt.Fprintf(&b, "your question was waiting for the user's answer.) You asked: %s\nThe user's answer: %s", p.Text, ans)
	}
	return b.String()
}
