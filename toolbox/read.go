package toolbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
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
