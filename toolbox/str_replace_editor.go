package toolbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// EditorIn is str_replace_editor's input.
type EditorIn struct {
	Command    string `json:"command"`
	Path       string `json:"path"`
	FileText   string `json:"file_text,omitempty"`
	OldStr     string `json:"old_str,omitempty"`
	NewStr     string `json:"new_str,omitempty"`
	InsertLine *int   `json:"insert_line,omitempty"`
	ViewRange  []int  `json:"view_range,omitempty"`
}

const editorInSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"]},
    "path": {"type": "string", "minLength": 1, "description": "File path (absolute, or relative to the workspace)."},
    "file_text": {"type": "string", "description": "create: the file's content."},
    "old_str": {"type": "string", "description": "str_replace: exact text to replace (must be unique)."},
    "new_str": {"type": "string", "description": "str_replace: replacement; insert: text to insert."},
    "insert_line": {"type": "integer", "minimum": 0, "description": "insert: insert after this line (0 = at the top)."},
    "view_range": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2, "description": "view: [first, last] line, last -1 = to the end."}
  },
  "required": ["command", "path"],
  "additionalProperties": false
}`

const editorOutSchema = `{"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}`

// EditorOut is str_replace_editor's value.
type EditorOut struct {
	Text string `json:"text"`
}

// undoEntry is one earlier content of a file. exact is false when the
// guest's read could not give it back byte for byte (see wholeFile); such
// an entry refuses to be restored rather than writing a damaged copy.
type undoEntry struct {
	content string
	exact   bool
}

func (s *set) editor() tools.Tool {
	spec := tools.Spec{Name: "str_replace_editor", Description: doc("str_replace_editor"), InputSchema: []byte(editorInSchema), OutputSchema: []byte(editorOutSchema)}
	return tools.New(spec, s.runEditor, tools.Writes(editorWrites), tools.WithRenderer(func(v any) string { return v.(EditorOut).Text }))
}

// editorWrites is str_replace_editor's Writes predicate: every command
// but view changes a file.
func editorWrites(args json.RawMessage) bool {
	var in struct {
		Command string `json:"command"`
	}
	return json.Unmarshal(args, &in) != nil || in.Command != "view"
}

func (s *set) runEditor(ctx context.Context, call tools.Call, in EditorIn) (EditorOut, error) {
	ws, err := s.workspace(ctx)
	if err != nil {
		return EditorOut{}, err
	}
	p := abs(ws, in.Path)
	switch in.Command {
	case "view":
		r := ReadIn{FilePath: p}
		if len(in.ViewRange) == 2 {
			r.Offset = max(in.ViewRange[0], 1)
			if in.ViewRange[1] > 0 {
				r.Limit = max(in.ViewRange[1]-r.Offset+1, 1)
			}
		}
		o, err := s.runRead(ctx, call, r)
		return EditorOut{renderRead(o)}, err
	case "create":
		old, exact, err := s.wholeFile(ctx, p)
		if err != nil {
			old, exact = "", true // a new file: undo empties it
		}
		o, err := s.fileOp(ctx, s.baseMode(ctx), proto.OpWrite, proto.FileRequest{Path: p, Content: in.FileText})
		if err != nil {
			return EditorOut{}, err
		}
		s.pushUndo(ctx, p, undoEntry{old, exact})
		s.afterChange(ctx, p, o)
		return EditorOut{fmt.Sprintf("Created %s.", p)}, nil
	case "str_replace":
		if in.OldStr == "" {
			return EditorOut{}, tools.Errorf(tools.CodeInvalidArgs, "str_replace needs old_str")
		}
		old, exact, err := s.wholeFile(ctx, p)
		if err != nil {
			return EditorOut{}, err
		}
		o, err := s.fileOp(ctx, s.baseMode(ctx), proto.OpEdit, proto.FileRequest{Path: p, OldString: in.OldStr, NewString: in.NewStr})
		if err != nil {
			return EditorOut{}, err
		}
		s.pushUndo(ctx, p, undoEntry{old, exact})
		s.afterChange(ctx, p, o)
		return EditorOut{fmt.Sprintf("Replaced the text in %s.", p)}, nil
	case "insert":
		if in.InsertLine == nil {
			return EditorOut{}, tools.Errorf(tools.CodeInvalidArgs, "insert needs insert_line")
		}
		old, exact, err := s.wholeFile(ctx, p)
		if err != nil {
			return EditorOut{}, err
		}
		if !exact {
			return EditorOut{}, tools.Errorf(tools.CodeToolFailed, "insert cannot rewrite %s without damaging it (CRLF line endings, a line over %d characters, or it changed while being read); use str_replace instead", p, maxLineChars)
		}
		content, err := insertAfter(p, old, *in.InsertLine, in.NewStr)
		if err != nil {
			return EditorOut{}, err
		}
		o, err := s.fileOp(ctx, s.baseMode(ctx), proto.OpWrite, proto.FileRequest{Path: p, Content: content})
		if err != nil {
			return EditorOut{}, err
		}
		s.pushUndo(ctx, p, undoEntry{old, exact})
		at := *in.InsertLine
		s.afterChange(ctx, p, o)
		return EditorOut{fmt.Sprintf("Inserted after line %d of %s.", at, p)}, nil
	case "undo_edit":
		prev, ok := s.popUndo(ctx, p)
		if !ok {
			return EditorOut{}, tools.Errorf(tools.CodeToolFailed, "no edit of %s to undo", p)
		}
		if !prev.exact {
			return EditorOut{}, tools.Errorf(tools.CodeToolFailed, "the last edit of %s cannot be undone: its earlier content could not be read back exactly (CRLF line endings or a line over %d characters); reverse the change with str_replace", p, maxLineChars)
		}
		o, err := s.fileOp(ctx, s.baseMode(ctx), proto.OpWrite, proto.FileRequest{Path: p, Content: prev.content})
		if err != nil {
			return EditorOut{}, err
		}
		s.afterChange(ctx, p, o)
		return EditorOut{fmt.Sprintf("Undid the last edit of %s.", p)}, nil
	}
	return EditorOut{}, tools.Errorf(tools.CodeInvalidArgs, "unknown command %q", in.Command)
}

// maxLineChars is the guest read's cut of a long line (fileops.MaxLineChars).
const maxLineChars = 2000

// wholeFile reads a file's full text through the guest, page by page. The
// guest's read drops line terminators and cuts long lines, so the text is
// rebuilt with "\n" endings and checked against the file's SHA-256: exact
// is false when the rebuilt text differs from the file (CRLF endings, a
// cut line, or a change between pages). A missing final newline is
// recognised and kept.
func (s *set) wholeFile(ctx context.Context, p string) (text string, exact bool, err error) {
	var b strings.Builder
	offset, sum := 1, ""
	for {
		resp, err := s.fileOp(ctx, s.baseMode(ctx), proto.OpRead, proto.FileRequest{Path: p, Offset: offset, Limit: ReadMaxLines, MaxBytes: 4 << 20})
		if err != nil {
			return "", false, err
		}
		if resp.Stat != nil {
			sum = resp.Stat.SHA256
		}
		for _, l := range resp.Lines {
			b.WriteString(l.Text + "\n")
			offset = l.N + 1
		}
		if len(resp.Lines) == 0 || offset > resp.TotalLine {
			break
		}
	}
	text = b.String()
	for _, t := range []string{text, strings.TrimSuffix(text, "\n")} {
		if h := sha256.Sum256([]byte(t)); hex.EncodeToString(h[:]) == sum {
			return t, true, nil
		}
	}
	return text, false, nil
}

// insertAfter puts text, as whole lines, after line at of content (0 = at
// the top), leaving every other byte as it was.
func insertAfter(p, content string, at int, text string) (string, error) {
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if at > len(lines) {
		return "", tools.Errorf(tools.CodeInvalidArgs, "insert_line %d is past the end of %s (%d lines)", at, p, len(lines))
	}
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		lines[at-1] += "\n" // the unterminated last line gets its newline
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return strings.Join(lines[:at], "") + text + strings.Join(lines[at:], ""), nil
}

func (s *set) afterChange(ctx context.Context, p string, o proto.FileResponse) {
	if o.Stat != nil {
		s.remember(ctx, p, o.Stat.SHA256)
	}
}

func (s *set) undoKey(ctx context.Context, p string) string {
	return tools.EnvFrom(ctx).SessionID + "\x00" + p
}

func (s *set) pushUndo(ctx context.Context, p string, e undoEntry) {
	k := s.undoKey(ctx, p)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.undo[k] = append(s.undo[k], e)
}

func (s *set) popUndo(ctx context.Context, p string) (undoEntry, bool) {
	k := s.undoKey(ctx, p)
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.undo[k]
	if len(st) == 0 {
		return undoEntry{}, false
	}
	s.undo[k] = st[:len(st)-1]
	return st[len(st)-1], true
}
