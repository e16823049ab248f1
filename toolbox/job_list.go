package toolbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// JobListOutput is job_list's value.
type JobListOutput struct {
	Jobs []JobInfo `json:"jobs"`
}

var jobListOutSchema = `{"type": "object", "properties": {"jobs": {"type": "array", "items": {"type": "object", "properties": {` +
	jobInfoProps + `}, "required": [` + jobInfoRequired + `], "additionalProperties": false}}}, "required": ["jobs"], "additionalProperties": false}`

func (s *set) jobList() tools.Tool {
	return tools.New(jobSpec(JobListName, `{"type": "object", "properties": {}, "additionalProperties": false}`, jobListOutSchema),
		func(context.Context, tools.Call, struct{}) (JobListOutput, error) {
			if s.cfg.Jobs == nil {
				return JobListOutput{}, errNoJobs
			}
			out := JobListOutput{Jobs: []JobInfo{}}
			for _, i := range s.cfg.Jobs.List() {
				out.Jobs = append(out.Jobs, jobInfo(i))
			}
			return out, nil
		}, tools.Safe(), tools.WithRenderer(renderJobList))
}

func renderJobList(v any) string {
	l, ok := v.(JobListOutput)
	if !ok {
		return tools.RenderValue(v)
	}
	if len(l.Jobs) == 0 {
		return "This session has started no background jobs."
	}
	var b strings.Builder
	for _, j := range l.Jobs {
		fmt.Fprintf(&b, "%s  %-16s %8d bytes  started %s  %s\n", j.JobID, j.status(), j.OutputBytes, j.Started, j.Command)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
