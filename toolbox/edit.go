package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// EditIn is the edit tool's input.
type EditIn struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
	Escalation
}

var editInSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file (absolute, or relative to the workspace)."},
    "old_string": {"type": "string", "minLength": 1, "description": "Exact text to replace; must match once unless replace_all."},
    "new_string": {"type": "string", "description": "Replacement text."},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence."}` + escalationProps + `
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

func (s *set) edit() tools.Tool {
	spec := tools.Spec{Name: "edit", Description: doc("edit"), InputSchema: []byte(editInSchema), OutputSchema: []byte(changeOutSchema)}
	return tools.New(spec, s.runEdit, tools.Writes(tools.AlwaysWrites), tools.WithRenderer(renderChange))
}

func (s *set) runEdit(ctx context.Context, call tools.Call, in EditIn) (ChangeOut, error) {
	mode, p, err := s.changeTarget(ctx, call, in.Escalation, in.FilePath)
	if err != nil {
		return ChangeOut{}, err
	}
	sum, known := s.lastSeen(ctx, p)
	if !known {
		return ChangeOut{}, tools.Errorf(tools.CodeToolFailed, "read %s with the read tool before editing it", p)
	}
	if in.OldString == in.NewString {
		return ChangeOut{}, tools.Errorf(tools.CodeInvalidArgs, "old_string and new_string are identical; nothing to change")
	}
	resp, err := s.fileOp(ctx, mode, proto.OpEdit, proto.FileRequest{Path: p, OldString: in.OldString, NewString: in.NewString, ReplaceAll: in.ReplaceAll, ExpectSHA256: sum})
	if err != nil {
		return ChangeOut{}, err
	}
	s.afterChange(ctx, p, resp)
	return ChangeOut{Path: p, Bytes: size(resp), Replaced: resp.Replaced}, nil
}

// size is the file's size after a change, 0 when the guest sent no stat.
func size(resp proto.FileResponse) int64 {
	if resp.Stat == nil {
		return 0
	}
	return resp.Stat.Size
}
