// Package frontmatter splits a markdown file into its YAML front matter
// and its body, the way skills (SKILL.md) and custom slash commands
// (.ptc/commands/*.md) are written:
//
//	---
//	name: deploy-check
//	description: What the file is for.
//	---
//	The body, in markdown.
//
// The first line must be exactly "---" (a byte-order mark and trailing
// spaces are tolerated) and the front matter ends at the next line that
// is "---" (or "..."). A file without that first line has no front
// matter: all of it is the body. Both skills and commands come from
// repositories, so the parser is strict about shape and lenient about
// nothing else: a front matter that does not close, or is not a YAML
// mapping, is an error saying so, never a panic.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxFrontMatter bounds the front matter: a mapping of a few short
// fields needs far less, and the YAML decoder's work is bounded by it.
const MaxFrontMatter = 16 << 10

// Split returns the front matter (without its fences) and the body.
// has is false when the text does not start with a fence; then body is
// the whole text. An unclosed fence is an error.
func Split(text string) (front, body string, has bool, err error) {
	text = strings.TrimPrefix(text, "\ufeff")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return "", text, false, nil
	}
	for off := 0; off <= len(rest); {
		line, next, found := strings.Cut(rest[off:], "\n")
		if l := strings.TrimRight(line, " \t\r"); l == "---" || l == "..." {
			front = rest[:off]
			if found {
				body = next
			}
			if len(front) > MaxFrontMatter {
				return "", "", true, fmt.Errorf("the front matter is longer than %d KiB", MaxFrontMatter>>10)
			}
			return front, body, true, nil
		}
		if !found {
			break
		}
		off += len(line) + 1
	}
	return "", "", true, errors.New("the front matter opened with --- on the first line is never closed by a line ---")
}

// Parse splits text and decodes its front matter into v (a pointer to a
// struct with yaml tags). Text without front matter leaves v as it is.
// The error says what is wrong in words a file's author can act on.
func Parse(text string, v any) (body string, has bool, err error) {
	front, body, has, err := Split(text)
	if err != nil || !has {
		return body, has, err
	}
	if strings.TrimSpace(front) == "" {
		return body, true, nil
	}
	var node yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader([]byte(front)))
	if err := dec.Decode(&node); err != nil {
		return "", true, fmt.Errorf("the front matter is not valid YAML: %s", yamlMessage(err))
	}
	if len(node.Content) == 0 || node.Content[0].Kind != yaml.MappingNode {
		return "", true, errors.New("the front matter must be a YAML mapping (key: value lines)")
	}
	if err := node.Content[0].Decode(v); err != nil {
		return "", true, fmt.Errorf("the front matter does not fit: %s", yamlMessage(err))
	}
	return body, true, nil
}

// yamlMessage is the decoder's message without its package prefix.
func yamlMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
