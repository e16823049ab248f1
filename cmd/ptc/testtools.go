package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

type sleepArgs struct {
	Ms int `json:"ms"`
}

// sleepTool waits; it is the one tool of the hidden PTC_TEST_TOOLS
// toolset.
func sleepTool() tools.Tool {
	spec := tools.Spec{
		Name:        "test_sleep",
		Description: "Wait for ms milliseconds (test tool).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0}},"required":["ms"]}`),
	}
	return tools.New(spec, func(ctx context.Context, _ tools.Call, in sleepArgs) (string, error) {
		select {
		case <-time.After(time.Duration(in.Ms) * time.Millisecond):
			return fmt.Sprintf("slept %d ms", in.Ms), nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
}
