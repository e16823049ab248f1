package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// A session is opened from a home, run a turn at a time, and resumed later
// with the settings it was created with.
func Example() {
	dir, _ := os.MkdirTemp("", "ptc-example-")
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, "model.json")
	os.WriteFile(model, []byte(`{"replies":[{"text":"Hello from a scripted model."}]}`), 0o644)

	home, _ := harness.OpenHome(filepath.Join(dir, "home"))
	defer home.Close()
	ctx := context.Background()
	s, err := harness.Open(ctx, home, harness.Options{
		Settings: session.Settings{Preset: "standard", Model: "script:" + model, Workspace: dir},
		Toolset:  noTools, // keep the example away from the sandbox
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := s.Run(ctx, "say hello")
	fmt.Println(out.Reason+":", out.Text)
	id := s.ID()
	s.Close()

	r, _ := harness.Open(ctx, home, harness.Options{Resume: id[:18], Toolset: noTools})
	fmt.Println("resumed with preset", r.Settings().Preset, "and the same model:", r.Settings().Model == "script:"+model)
	r.Close()
	// Output:
	// completed: Hello from a scripted model.
	// resumed with preset standard and the same model: true
}
