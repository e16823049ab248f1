package toolbox

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// JobKillIn is job_kill's input.
type JobKillIn struct {
	JobID string `json:"job_id"`
}

var jobKillOutSchema = `{"type": "object", "properties": {` + jobInfoProps + `}, "required": [` + jobInfoRequired + `], "additionalProperties": false}`

func (s *set) jobKill() tools.Tool {
	return tools.New(jobSpec(JobKillName, `{"type": "object", "properties": {"job_id": {"type": "string", "minLength": 1}}, "required": ["job_id"], "additionalProperties": false}`, jobKillOutSchema),
		func(ctx context.Context, _ tools.Call, in JobKillIn) (JobInfo, error) {
			if s.cfg.Jobs == nil {
				return JobInfo{}, errNoJobs
			}
			info, err := s.cfg.Jobs.Kill(in.JobID, session.EndedByModel)
			if err != nil {
				return JobInfo{}, err
			}
			return jobInfo(info), nil
		}, tools.WithRenderer(func(v any) string {
			j, ok := v.(JobInfo)
			if !ok {
				return tools.RenderValue(v)
			}
			return fmt.Sprintf("%s %s (%d bytes of output in %s; read the end with job_output).", j.JobID, j.status(), j.OutputBytes, j.OutputFile)
		}))
}
