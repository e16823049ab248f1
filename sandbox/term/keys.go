package term

import (
	"fmt"
	"strings"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// namedKeys are the key names terminal_send understands, besides single
// characters with modifiers ("Ctrl-C", "Alt-x").
var namedKeys = map[string]rune{
	"enter": uv.KeyEnter, "return": uv.KeyEnter, "tab": uv.KeyTab, "escape": uv.KeyEscape, "esc": uv.KeyEscape,
	"backspace": uv.KeyBackspace, "space": uv.KeySpace, "up": uv.KeyUp, "down": uv.KeyDown, "left": uv.KeyLeft,
	"right": uv.KeyRight, "home": uv.KeyHome, "end": uv.KeyEnd, "pageup": uv.KeyPgUp, "pagedown": uv.KeyPgDown,
	"insert": uv.KeyInsert, "delete": uv.KeyDelete,
	"f1": uv.KeyF1, "f2": uv.KeyF2, "f3": uv.KeyF3, "f4": uv.KeyF4, "f5": uv.KeyF5, "f6": uv.KeyF6,
	"f7": uv.KeyF7, "f8": uv.KeyF8, "f9": uv.KeyF9, "f10": uv.KeyF10, "f11": uv.KeyF11, "f12": uv.KeyF12,
}

// KeyNames lists the names ParseKey accepts, for the tool's description.
const KeyNames = "Enter, Tab, Escape, Backspace, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, " +
	"and a letter or one of these with Ctrl-, Alt- or Shift- before it (Ctrl-C, Ctrl-D, Alt-f, Shift-Tab)"

// ParseKey reads one key name such as "Enter", "Ctrl-C" or "Shift-Tab".
func ParseKey(name string) (uv.KeyPressEvent, error) {
	var mod uv.KeyMod
	rest := name
	for {
		lower := strings.ToLower(rest)
		switch {
		case strings.HasPrefix(lower, "ctrl-") || strings.HasPrefix(lower, "ctrl+"):
			mod |= uv.ModCtrl
		case strings.HasPrefix(lower, "alt-") || strings.HasPrefix(lower, "alt+"):
			mod |= uv.ModAlt
		case strings.HasPrefix(lower, "shift-") || strings.HasPrefix(lower, "shift+"):
			mod |= uv.ModShift
		default:
			if code, ok := namedKeys[lower]; ok {
				return uv.KeyPressEvent{Code: code, Mod: mod}, nil
			}
			if r, size := utf8.DecodeRuneInString(rest); size == len(rest) && r != utf8.RuneError {
				if mod&uv.ModCtrl != 0 {
					r = []rune(strings.ToLower(string(r)))[0]
				}
				return uv.KeyPressEvent{Code: r, Mod: mod}, nil
			}
			return uv.KeyPressEvent{}, fmt.Errorf("unknown key %q; keys are %s", name, KeyNames)
		}
		rest = rest[strings.IndexAny(rest, "-+")+1:]
	}
}
