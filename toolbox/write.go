package toolbox

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// WriteIn is the write tool's input.
type WriteIn struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
	Escalation
}

// ChangeOut is the value of write and edit.
type ChangeOut struct {
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes"`
	Replaced int    `json:"replaced,omitempty"`
	Created  bool   `json:"created,omitempty"`
}

var writeInSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file (absolute, or relative to the workspace)."},
    "content": {"type": "string", "description": "The whole new content."}` + escalationProps + `
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

const changeOutSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "bytes": {"type": "integer"},
    "replaced": {"type": "integer"},
    "created": {"type": "boolean"}
  },
  "required": ["path", "bytes"]
}`

func renderChange(v any) string {
	o := v.(ChangeOut)
	switch {
	case o.Created:
		return fmt.Sprintf("Created %s (%d bytes).", o.Path, o.Bytes)
	case o.Replaced > 0:
		return fmt.Sprintf("Edited %s: %d replacement(s), now %d bytes.", o.Path, o.Replaced, o.Bytes)
	}
	return fmt.Sprintf("Wrote %s (%d bytes).", o.Path, o.Bytes)
}

// changeTarget resolves what write and edit share: the mode the call runs
// in (escalation checked and approved) and the absolute path it changes.
func (s *set) changeTarget(ctx context.Context, call tools.Call, esc Escalation, path string) (sandbox.Mode, string, error) {
	mode, err := s.mode(ctx, call, esc)
	if err != nil {
		return "", "", err
	}
	ws, err := s.workspace(ctx)
	if err != nil {
		return "", "", err
	}
	return mode, abs(ws, path), nil
}

func (s *set) write() tools.Tool {
	spec := tools.Spec{Name: "write", Description: doc("write"), InputSchema: []byte(writeInSchema), OutputSchema: []byte(changeOutSchema)}
	return tools.New(spec, s.runWrite, tools.Writes(tools.AlwaysWrites), tools.WithRenderer(renderChange))
}

func (s *set) runWrite(ctx context.Context, call tools.Call, in WriteIn) (ChangeOut, error) {
	mode, p, err := s.changeTarget(ctx, call, in.Escalation, in.FilePath)
	if err != nil {
		return ChangeOut{}, err
	}
	req := proto.FileRequest{Path: p, Content: in.Content}
	sum, known := s.lastSeen(ctx, p)
	if known {
		req.ExpectSHA256 = sum
	} else {
		req.ExpectAbsent = true
	}
	resp, err := s.fileOp(ctx, mode, proto.OpWrite, req)
	if err != nil {
		return ChangeOut{}, err
	}
	s.afterChange(ctx, p, resp)
	return ChangeOut{Path: p, Bytes: size(resp), Created: !known}, nil
}
