package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

type sleepArgs struct {
	Ms int `json:"ms"`
	// Mark, when set, is a file the call appends a line to before it
	// sleeps: a side effect the fleet tests count.
	Mark string `json:"mark"`
}

// sleepTool waits; it is the one tool of the hidden PTC_TEST_TOOLS
// toolset.
func sleepTool() tools.Tool {
	spec := tools.Spec{
		Name:        "test_sleep",
		Description: "Wait for ms milliseconds (test tool).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0},"mark":{"type":"string"}},"required":["ms"]}`),
	}
	return tools.New(spec, func(ctx context.Context, _ tools.Call, in sleepArgs) (string, error) {
		if in.Mark != "" {
			f, err := os.OpenFile(in.Mark, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(f, "slept by pid %d\n", os.Getpid())
			f.Close()
		}
		select {
		case <-time.After(time.Duration(in.Ms) * time.Millisecond):
			return fmt.Sprintf("slept %d ms", in.Ms), nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
}
