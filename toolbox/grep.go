package toolbox

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// GrepMax caps grep's matches.
const GrepMax = 500

// GrepIn is the grep tool's input.
type GrepIn struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path,omitempty"`
	Include    string `json:"include,omitempty"`
	OutputMode string `json:"output_mode,omitempty"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`
}

// GrepOut is the grep tool's value.
type GrepOut struct {
	Mode    string         `json:"mode"`
	Matches []proto.Match  `json:"matches,omitempty"`
	Files   []string       `json:"files,omitempty"`
	Counts  map[string]int `json:"counts,omitempty"`
	Total   int            `json:"total"`
	Capped  bool           `json:"capped"`
}

const grepInSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "RE2 regular expression."},
    "path": {"type": "string", "description": "File or directory to search (default: the workspace)."},
    "include": {"type": "string", "description": "Only files whose name matches this glob (e.g. *.go)."},
    "output_mode": {"type": "string", "enum": ["content", "files_with_matches", "count"], "description": "content: matching lines (default); files_with_matches: file names; count: matches per file."},
    "ignore_case": {"type": "boolean"}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const grepOutSchema = `{
  "type": "object",
  "properties": {
    "mode": {"type": "string"},
    "matches": {"type": "array", "items": {"type": "object", "properties": {"path": {"type": "string"}, "line": {"type": "integer"}, "text": {"type": "string"}}, "required": ["path", "line", "text"]}},
    "files": {"type": "array", "items": {"type": "string"}},
    "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
    "total": {"type": "integer"},
    "capped": {"type": "boolean"}
  },
  "required": ["mode", "total", "capped"]
}`

func (s *set) grep() tools.Tool {
	spec := tools.Spec{Name: "grep", Description: doc("grep"), InputSchema: []byte(grepInSchema), OutputSchema: []byte(grepOutSchema)}
	return tools.New(spec, s.runGrep, tools.Safe(), tools.WithRenderer(func(v any) string { return renderGrep(v.(GrepOut)) }))
}

func (s *set) runGrep(ctx context.Context, _ tools.Call, in GrepIn) (GrepOut, error) {
	mode := in.OutputMode
	if mode == "" {
		mode = "content"
	}
	resp, err := s.search(ctx, proto.OpGrep, proto.FileRequest{Path: in.Path, Pattern: in.Pattern, Include: in.Include, IgnoreCase: in.IgnoreCase, MaxResults: GrepMax})
	if err != nil {
		return GrepOut{}, err
	}
	out := GrepOut{Mode: mode, Total: max(resp.Total, len(resp.Matches)), Capped: resp.Truncated}
	switch mode {
	case "content":
		out.Matches = resp.Matches
	case "files_with_matches":
		seen := map[string]bool{}
		for _, m := range resp.Matches {
			if !seen[m.Path] {
				seen[m.Path] = true
				out.Files = append(out.Files, m.Path)
			}
		}
	case "count":
		out.Counts = map[string]int{}
		for _, m := range resp.Matches {
			out.Counts[m.Path]++
		}
	}
	return out, nil
}

// search runs a glob or grep on the host over the session's mounts (see
// sandbox.Host.Search), with the errors the other file tools give.
func (s *set) search(ctx context.Context, op string, req proto.FileRequest) (proto.FileResponse, error) {
	ws, err := s.workspace(ctx)
	if err != nil {
		return proto.FileResponse{}, err
	}
	req.Path = abs(ws, req.Path)
	resp, err := s.host.Search(ctx, s.scope(ctx, ws, guestMode(s.baseMode(ctx))), op, req)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return resp, tools.Errorf(tools.CodeToolTimeout, "the %s of %s timed out", op, req.Path)
	case err != nil:
		return resp, err
	case resp.Error != nil:
		return resp, fileError(req.Path, resp.Error)
	}
	return resp, nil
}

func renderGrep(o GrepOut) string {
	var b strings.Builder
	switch o.Mode {
	case "content":
		last := ""
		for _, m := range o.Matches {
			if m.Path != last {
				if last != "" {
					b.WriteByte('\n')
				}
				b.WriteString(m.Path + "\n")
				last = m.Path
			}
			fmt.Fprintf(&b, "  %d: %s\n", m.Line, m.Text)
		}
	case "files_with_matches":
		for _, f := range o.Files {
			b.WriteString(f + "\n")
		}
	case "count":
		files := make([]string, 0, len(o.Counts))
		for f := range o.Counts {
			files = append(files, f)
		}
		sort.Strings(files)
		for _, f := range files {
			fmt.Fprintf(&b, "%s: %d\n", f, o.Counts[f])
		}
	}
	if b.Len() == 0 {
		return "No matches."
	}
	if o.Capped {
		fmt.Fprintf(&b, "(results capped; %d matches in total — narrow the pattern, path or include)\n", o.Total)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
