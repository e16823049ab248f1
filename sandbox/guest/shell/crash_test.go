package shell

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestAPanickingCommandKeepsTheOutputBeforeIt(t *testing.T) {
	builtins["ptc-test-panic"] = func(*cmd, []string) int { panic("boom") }
	defer delete(builtins, "ptc-test-panic")
	s, err := New(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code, err := s.Run(context.Background(), "echo before; ptc-test-panic; echo after", nil, &out, &errs)
	if err != nil || code != ExitCrashed {
		t.Fatalf("got %d, %v; want %d", code, err, ExitCrashed)
	}
	if out.String() != "before\n" || !strings.Contains(errs.String(), "boom") {
		t.Errorf("stdout %q stderr %q", out.String(), errs.String())
	}
	if !s.Exited() {
		t.Error("a shell whose interpreter panicked must count as exited, so it is replaced")
	}
}
