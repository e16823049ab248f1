package toolstest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestAnswererGivesItsAnswersInOrderThenRepeatsTheLast(t *testing.T) {
	a := Answer("one", "two")
	var got []string
	for range 3 {
		s, err := a.Ask(context.Background(), tools.Question{Text: "q"})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.Answer)
	}
	if !reflect.DeepEqual(got, []string{"one", "two", "two"}) || len(a.Asked()) != 3 {
		t.Fatalf("answers %v, asked %d", got, len(a.Asked()))
	}
}

func TestAnswererWithoutAnswersIsHeadless(t *testing.T) {
	if _, err := (&Answerer{}).Ask(context.Background(), tools.Question{}); !errors.Is(err, tools.ErrNoAnswerer) {
		t.Fatalf("got %v, want ErrNoAnswerer", err)
	}
	boom := errors.New("tty closed")
	a := &Answerer{Answers: []string{"x"}, Err: boom}
	if _, err := a.Ask(context.Background(), tools.Question{}); err != boom || len(a.Asked()) != 1 {
		t.Fatalf("got %v (asked %d), want the set error and the question kept", err, len(a.Asked()))
	}
}

func TestSinkKeepsEventsInOrder(t *testing.T) {
	var s Sink
	s.Emit("a", 1)
	s.Emit("b", 2)
	if !reflect.DeepEqual(s.Types(), []string{"a", "b"}) || !reflect.DeepEqual(s.Data(), []any{1, 2}) {
		t.Fatalf("types %v, data %v", s.Types(), s.Data())
	}
}
