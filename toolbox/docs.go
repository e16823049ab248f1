package toolbox

import (
	"embed"
	"strings"
)

// Each tool's description is the .md file named after it: the text the
// model reads, kept beside the tool's code and out of Go string literals.
//
//go:embed *.md
var docs embed.FS

// doc is the description of the tool called name, trimmed.
func doc(name string) string {
	b, err := docs.ReadFile(name + ".md")
	if err != nil {
		panic("toolbox: missing description " + name + ".md")
	}
	return strings.TrimSpace(string(b))
}
