package toolbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// TerminalReadIn is terminal_read's input.
type TerminalReadIn struct {
	ID     string `json:"id"`
	WaitMS int    `json:"wait_ms,omitempty"`
}

const terminalReadInSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "minLength": 1},
    "wait_ms": {"type": "integer", "minimum": 0, "maximum": 60000, "description": "Wait up to this long for new output, and for it to pause, before reading (default: read at once)."}
  },
  "required": ["id"],
  "additionalProperties": false
}`

const terminalReadOutSchema = `{"type": "object", "properties": {
	"screen": {"type": "string", "description": "the screen as text, one line per row"},
	"scrollback": {"type": "string", "description": "lines that scrolled off the top since the previous read"},
	"scrollback_dropped": {"type": "boolean", "description": "more lines scrolled off than are kept"},
	"cursor_row": {"type": "integer"}, "cursor_col": {"type": "integer"},
	"cols": {"type": "integer"}, "rows": {"type": "integer"},
	"running": {"type": "boolean"},
	"exit_code": {"type": "integer", "description": "set once the program ended"},
	"note": {"type": "string"}},
	"required": ["screen", "cursor_row", "cursor_col", "cols", "rows", "running"], "additionalProperties": false}`

// maxReadWait bounds wait_ms.
const maxReadWait = time.Minute

func (s *set) terminalRead() tools.Tool {
	return tools.New(terminalSpec(TerminalReadName, terminalReadInSchema, terminalReadOutSchema),
		func(ctx context.Context, _ tools.Call, in TerminalReadIn) (term.Screen, error) {
			m, err := s.terminals()
			if err != nil {
				return term.Screen{}, err
			}
			return m.Read(ctx, in.ID, min(time.Duration(in.WaitMS)*time.Millisecond, maxReadWait))
		}, tools.Safe(), tools.WithRenderer(renderScreen))
}

func renderScreen(v any) string {
	sc, ok := v.(term.Screen)
	if !ok {
		return tools.RenderValue(v)
	}
	var b strings.Builder
	if sc.Scrollback != "" {
		if sc.Dropped {
			b.WriteString("[earlier lines scrolled off and were not kept]\n")
		}
		b.WriteString("[scrolled off since the last read]\n" + sc.Scrollback + "\n[screen]\n")
	}
	b.WriteString(sc.Text)
	state := fmt.Sprintf("cursor at row %d, column %d; %dx%d", sc.CursorRow, sc.CursorCol, sc.Cols, sc.Rows)
	if !sc.Running && sc.ExitCode != nil {
		state = fmt.Sprintf("the program ended with exit code %d; close the terminal with terminal_close", *sc.ExitCode)
	}
	fmt.Fprintf(&b, "\n[%s]", state)
	if sc.Note != "" {
		fmt.Fprintf(&b, "\n[%s]", sc.Note)
	}
	return b.String()
}
