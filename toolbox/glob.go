package toolbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// GlobMax caps glob's matches.
const GlobMax = 200

// GlobIn is the glob tool's input.
type GlobIn struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// GlobOut is the glob tool's value: matches newest first.
type GlobOut struct {
	Paths []string `json:"paths"`
	Total int      `json:"total"`
}

const globInSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Glob pattern; ** matches any number of directories (e.g. **/*.go)."},
    "path": {"type": "string", "description": "Directory to search (default: the workspace)."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const globOutSchema = `{
  "type": "object",
  "properties": {
    "paths": {"type": "array", "items": {"type": "string"}},
    "total": {"type": "integer"}
  },
  "required": ["paths", "total"]
}`

func (s *set) glob() tools.Tool {
	spec := tools.Spec{Name: "glob", Description: doc("glob"), InputSchema: []byte(globInSchema), OutputSchema: []byte(globOutSchema)}
	return tools.New(spec, s.runGlob, tools.Safe(), tools.WithRenderer(func(v any) string {
		o := v.(GlobOut)
		if len(o.Paths) == 0 {
			return "No files matched."
		}
		text := strings.Join(o.Paths, "\n")
		if rest := o.Total - len(o.Paths); rest > 0 {
			text += fmt.Sprintf("\n(%d more not shown; narrow the pattern or path)", rest)
		}
		return text
	}))
}

func (s *set) runGlob(ctx context.Context, _ tools.Call, in GlobIn) (GlobOut, error) {
	resp, err := s.search(ctx, proto.OpGlob, proto.FileRequest{Path: in.Path, Pattern: in.Pattern, MaxResults: GlobMax})
	if err != nil {
		return GlobOut{}, err
	}
	out := GlobOut{Paths: []string{}, Total: max(resp.Total, len(resp.Paths))}
	for _, st := range resp.Paths {
		out.Paths = append(out.Paths, st.Path)
	}
	return out, nil
}
