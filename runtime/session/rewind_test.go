package session_test

import (
	"reflect"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// A rewind of the conversation takes the rewound turns off the surface,
// for the whole-log projection, the incremental one and OnSurface alike;
// a files-only rewind leaves the conversation as it was.
func TestRewindHidesTheRewoundTurns(t *testing.T) {
	build := func(filesOnly bool) *script {
		s := &script{t: t}
		s.turnStart(1).user("one").assistant(1, 1, "A1").turnEnd(1)
		s.turnStart(2)
		from := s.last()
		s.user("two").assistant(2, 1, "A2").turnEnd(2)
		s.add(session.TypeRewind, session.Rewind{ToTurn: 2, From: from, FilesOnly: filesOnly})
		return s.turnStart(3).user("three")
	}
	s := build(false)
	want := []string{"user:one", "assistant:A1", "user:three"}
	if got := contents(t, s.events); !reflect.DeepEqual(got, want) {
		t.Fatalf("surface after a rewind = %q, want %q", got, want)
	}
	var p session.Projector
	must(t, nilErr(p.Messages(s.events[:4])))
	msgs, err := p.Messages(s.events)
	must(t, err)
	if len(msgs) != len(want) || msgs[2].Content != "three" {
		t.Fatalf("incremental surface = %+v, want %q", msgs, want)
	}
	on, err := session.OnSurface(s.events, 5) // user "two"
	must(t, err)
	if on {
		t.Fatal("OnSurface says a rewound message is still on the surface")
	}
	kept := contents(t, build(true).events)
	if want := []string{"user:one", "assistant:A1", "user:two", "assistant:A2", "user:three"}; !reflect.DeepEqual(kept, want) {
		t.Fatalf("surface after a files-only rewind = %q, want %q", kept, want)
	}
}

func nilErr[T any](_ T, err error) error { return err }
