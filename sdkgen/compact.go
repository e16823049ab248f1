package sdkgen

// The compact SDK (Options.Compact) is the section of the run_code system
// prompt, sent with every model request of a ptc session: it says the
// same as the full SDK in fewer words. A small object is one line, a
// one-paragraph doc is one line, a type several tools share is declared
// once (hoist.go), a long member doc another tool already has reads "As
// in TOOL.", and ToolCallError and the tools comment are one line each.

import "strings"

// compactToolCallErrorDecl is ToolCallError as the compact SDK declares
// it: the same members, documented in one line.
const compactToolCallErrorDecl = `/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }
`

// toolsDoc is the comment on the tools declaration. The compact SDK
// mentions brackets only when some tool's name needs them.
func toolsDoc(m *model, compact bool) string {
	if !compact {
		return "/**\n * The tools, as async functions. Call a tool whose name is not an identifier\n * with brackets: tools[\"my-tool\"](args).\n */\n"
	}
	for _, t := range m.tools {
		if !isIdent(t.name, true) {
			return "/** The tools, as async functions; call one whose name is not an identifier as tools[\"my-tool\"](args). */\n"
		}
	}
	return "/** The tools, as async functions. */\n"
}

// doc renders a member's doc comment; the compact SDK joins one
// paragraph onto one line.
func (r *tsr) doc(lines []string, ind string) string {
	if r.compact {
		lines = joinDoc(lines)
	}
	return jsDoc(lines, ind)
}

// minDocRef is the shortest member doc the compact SDK refers back to
// instead of repeating it.
const minDocRef = 40

// memberDoc is a member's doc. The compact SDK writes a long doc once: a
// later tool's member of the same name, type and doc reads "As in TOOL."
// (the escalation members that bash, edit and write share).
func (r *tsr) memberDoc(p *prop, typ string) []string {
	if !r.compact || r.tool == "" {
		return p.doc
	}
	text := strings.Join(joinDoc(p.doc), "\n")
	if len(text) < minDocRef {
		return p.doc
	}
	key := p.name + "\x00" + typ + "\x00" + text
	switch first := r.docs[key]; first {
	case "":
		if r.docs == nil {
			r.docs = map[string]string{}
		}
		r.docs[key] = r.tool
	case r.tool:
	default:
		return []string{"As in " + first + "."}
	}
	return p.doc
}

// maxOneLine is the longest object the compact SDK writes on one line.
const maxOneLine = 100

// oneLine renders a small object on one line for the compact SDK: one
// with at most maxOneLine characters, no member docs, no index
// signature beside declared members, no readonly or Object-named
// members, and member types (propTypes, rendered already) that are one
// line themselves. ok is
// false when it does not qualify.
func (r *tsr) oneLine(t *typ, propTypes []string, inNS bool) (string, bool) {
	if !r.compact || t.index != nil && len(t.props) > 0 || r.markedOpen(t) || r.declaresObjectKeys(t) {
		return "", false
	}
	if t.index != nil {
		if !flat(t.index) {
			return "", false // rendering it twice would not stay linear
		}
		key := t.indexKey
		if key == "" {
			key = "string"
		}
		line := "{ [key: " + key + "]: " + r.typ(t.index, "", inNS) + " }"
		return line, !strings.Contains(line, "\n") && len(line) <= maxOneLine
	}
	parts := make([]string, len(t.props))
	n := 4
	for i, p := range t.props {
		if len(p.doc) > 0 || p.readOnly || objectProto[p.name] || strings.Contains(propTypes[i], "\n") {
			return "", false
		}
		opt := ""
		if p.optional {
			opt = "?"
		}
		parts[i] = tsKey(p.name) + opt + ": " + propTypes[i]
		if n += len(parts[i]) + 2; n > maxOneLine {
			return "", false
		}
	}
	return "{ " + strings.Join(parts, "; ") + " }", true
}

// flat reports whether t renders without rendering other types.
func flat(t *typ) bool {
	switch t.kind {
	case tJSON, tNever, tNull, tBool, tString, tNumber, tInteger, tLiteral, tRef:
		return true
	}
	return false
}

// joinDoc puts one paragraph of doc lines on a single line (the compact
// SDK's member docs): a description of one line and the constraint
// lines after it read as one sentence list, at a fraction of the
// comment syntax and indentation. Lines that form a list or more than
// one paragraph keep their breaks.
func joinDoc(lines []string) []string {
	if len(lines) < 2 {
		return lines
	}
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if t == "" || t != l || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "```") || listItem(t) {
			return lines
		}
	}
	return []string{strings.Join(lines, " ")}
}

// listItem reports whether a line starts a numbered list item ("1. ").
func listItem(l string) bool {
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && strings.HasPrefix(l[i:], ". ")
}
