package toolbox

import (
	"context"
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// NoopName is the wire name of the no-op tool.
const NoopName = "noop"

// NoopInput is echoed back by the no-op tool.
type NoopInput struct {
	Text string `json:"text,omitempty"`
}

// Noop returns a concurrency-safe tool that echoes its text: a body that
// costs nothing, for measuring the pipeline and for tests. It is in no
// preset.
func Noop() tools.Tool {
	spec := tools.Spec{
		Name:         NoopName,
		Description:  doc(NoopName),
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`),
	}
	return tools.New(spec, func(_ context.Context, _ tools.Call, in NoopInput) (string, error) {
		return in.Text, nil
	}, tools.Safe())
}
