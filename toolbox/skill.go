package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/skills"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// SkillName is the skill tool's wire name.
const SkillName = "skill"

// SkillIn is the skill tool's input.
type SkillIn struct {
	Name string `json:"name"`
}

const skillInSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The skill's name, as the skills list in the system prompt gives it."}
  },
  "required": ["name"],
  "additionalProperties": false
}`

const skillOutSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string"},
    "description": {"type": "string"},
    "source": {"type": "string", "enum": ["user", "workspace"]},
    "root": {"type": "string"},
    "dir": {"type": "string"},
    "file": {"type": "string", "description": "The skill's SKILL.md."},
    "body": {"type": "string", "description": "The skill's instructions (markdown)."},
    "files": {"type": "array", "description": "The skill's other files, for read.", "items": {
      "type": "object",
      "properties": {"path": {"type": "string"}, "bytes": {"type": "integer"}},
      "required": ["path", "bytes"],
      "additionalProperties": false
    }},
    "note": {"type": "string"}
  },
  "required": ["name", "description", "source", "root", "dir", "file", "body", "files"],
  "additionalProperties": false
}`

// Skill returns the skill tool over the session's catalog: it loads one
// skill's instructions and lists its other files. It reads only, so it
// is concurrency-safe and allowed in plan mode.
func Skill(c *skills.Catalog) tools.Tool {
	spec := tools.Spec{Name: SkillName, Description: doc(SkillName), InputSchema: json.RawMessage(skillInSchema), OutputSchema: json.RawMessage(skillOutSchema)}
	return tools.New(spec, func(_ context.Context, _ tools.Call, in SkillIn) (skills.Loaded, error) {
		if _, ok := c.Lookup(in.Name); !ok {
			return skills.Loaded{}, tools.Errorf(tools.CodeInvalidArgs, "no skill named %q; %s", in.Name, skillNames(c))
		}
		l, err := c.Load(in.Name)
		if err != nil {
			return skills.Loaded{}, tools.Errorf(tools.CodeToolFailed, "%v", err)
		}
		return l, nil
	}, tools.Safe(), tools.WithRenderer(func(v any) string { return renderSkill(v.(skills.Loaded)) }))
}

// skillNames lists the skills there are, for an unknown name.
func skillNames(c *skills.Catalog) string {
	var names []string
	for _, s := range c.Skills() {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return "this session has no skills"
	}
	if len(names) > 30 {
		names = append(names[:30], "…")
	}
	return "the skills are: " + strings.Join(names, ", ")
}

// renderSkill shows the body inside a tag naming the skill and its
// file, then the other files.
func renderSkill(l skills.Loaded) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<skill name=%q source=%q file=%q>\n%s\n</skill>", l.Name, l.Source, l.File, l.Body)
	if len(l.Files) > 0 {
		b.WriteString("\nOther files of this skill (open them with read when the instructions call for them):")
		for _, f := range l.Files {
			fmt.Fprintf(&b, "\n- %s (%d bytes)", f.Path, f.Bytes)
		}
	}
	if l.Note != "" {
		b.WriteString("\n[" + l.Note + "]")
	}
	return b.String()
}
