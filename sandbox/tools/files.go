package sandboxtools

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Limits of one read.
const (
	ReadMaxLines = 2000
	ReadMaxBytes = 50_000
)

// ReadIn is the read tool's input.
type ReadIn struct {
	FilePath string `json:"file_path"`
	Offset   int    `json:"offset,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// ReadOut is the read tool's value.
type ReadOut struct {
	Path       string       `json:"path"`
	Lines      []proto.Line `json:"lines"`
	TotalLines int          `json:"total_lines"`
	Truncated  bool         `json:"truncated"`
}

const readInSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file (absolute, or relative to the workspace)."},
    "offset": {"type": "integer", "minimum": 1, "description": "First line to read, 1-based."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "Number of lines to read (default and max 2000)."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

const readOutSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "lines": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}, "text": {"type": "string"}}, "required": ["n", "text"]}},
    "total_lines": {"type": "integer"},
    "truncated": {"type": "boolean"}
  },
  "required": ["path", "lines", "total_lines", "truncated"]
}`

func (s *set) read() tools.Tool {
	spec := tools.Spec{Name: "read", Description: doc("read"), InputSchema: []byte(readInSchema), OutputSchema: []byte(readOutSchema)}
	return tools.New(spec, s.runRead, tools.Safe(), tools.WithRenderer(func(v any) string { return renderRead(v.(ReadOut)) }))
}

func (s *set) runRead(ctx context.Context, call tools.Call, in ReadIn) (ReadOut, error) {
	limit := in.Limit
	if limit <= 0 || limit > ReadMaxLines {
		limit = ReadMaxLines
	}
	resp, err := s.fileOp(ctx, s.baseMode(ctx), proto.OpRead, proto.FileRequest{Path: in.FilePath, Offset: in.Offset, Limit: limit, MaxBytes: ReadMaxBytes})
	if err != nil {
		return ReadOut{}, err
	}
	p := in.FilePath
	if resp.Stat != nil {
		p = resp.Stat.Path
		s.remember(ctx, p, resp.Stat.SHA256)
	}
	if resp.Lines == nil {
		resp.Lines = []proto.Line{}
	}
	return ReadOut{Path: p, Lines: resp.Lines, TotalLines: resp.TotalLine, Truncated: resp.Truncated}, nil
}

func renderRead(o ReadOut) string {
	var b strings.Builder
	for _, l := range o.Lines {
		fmt.Fprintf(&b, "%6d\t%s\n", l.N, l.Text)
	}
	last := 0
	if n := len(o.Lines); n > 0 {
		last = o.Lines[n-1].N
	}
	switch {
	case o.TotalLines == 0:
		b.WriteString("(empty file)\n")
	case last < o.TotalLines:
		fmt.Fprintf(&b, "(file has %d lines; continue with offset=%d)\n", o.TotalLines, last+1)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

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
