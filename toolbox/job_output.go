package toolbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// JobOutputIn is job_output's input.
type JobOutputIn struct {
	JobID     string `json:"job_id"`
	WaitMS    int    `json:"wait_ms,omitempty"`
	TailLines int    `json:"tail_lines,omitempty"`
}

// JobOutputOut is job_output's value: the job and its new output.
type JobOutputOut struct {
	JobInfo
	Output       string `json:"output"`
	OmittedBytes int64  `json:"omitted_bytes,omitempty"`
	OutputNote   string `json:"output_note,omitempty"`
}

const jobOutputInSchema = `{
  "type": "object",
  "properties": {
    "job_id": {"type": "string", "minLength": 1},
    "wait_ms": {"type": "integer", "minimum": 0, "maximum": 300000, "description": "Wait up to this long for new output or the job's end before answering (default: answer at once)."},
    "tail_lines": {"type": "integer", "minimum": 1, "description": "Show only the last lines of the new output."}
  },
  "required": ["job_id"],
  "additionalProperties": false
}`

var jobOutputOutSchema = `{"type": "object", "properties": {` + jobInfoProps + `,
	"output": {"type": "string", "description": "what the job printed since the previous job_output of it"},
	"omitted_bytes": {"type": "integer", "description": "new output before the part shown, left in output_file"},
	"output_note": {"type": "string"}},
	"required": [` + jobInfoRequired + `, "output"], "additionalProperties": false}`

func (s *set) jobOutput() tools.Tool {
	return tools.New(jobSpec(JobOutputName, jobOutputInSchema, jobOutputOutSchema),
		func(ctx context.Context, _ tools.Call, in JobOutputIn) (JobOutputOut, error) {
			if s.cfg.Jobs == nil {
				return JobOutputOut{}, errNoJobs
			}
			o, err := s.cfg.Jobs.Read(ctx, in.JobID, time.Duration(in.WaitMS)*time.Millisecond, in.TailLines)
			if err != nil {
				return JobOutputOut{}, err
			}
			return JobOutputOut{JobInfo: jobInfo(o.Info), Output: o.New, OmittedBytes: o.Omitted, OutputNote: o.Note}, nil
		}, tools.Safe(), tools.WithRenderer(renderJobOutput))
}

func renderJobOutput(v any) string {
	o, ok := v.(JobOutputOut)
	if !ok {
		return tools.RenderValue(v)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s: %s]\n", o.JobID, o.status())
	if o.OutputNote != "" {
		fmt.Fprintf(&b, "[%s]\n", o.OutputNote)
	}
	if o.Output == "" {
		b.WriteString("(no new output)")
	} else {
		b.WriteString(strings.TrimSuffix(o.Output, "\n"))
	}
	if o.Note != "" {
		fmt.Fprintf(&b, "\n[%s]", o.Note)
	}
	return b.String()
}
