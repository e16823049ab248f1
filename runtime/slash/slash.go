// Package slash holds custom slash commands: markdown files whose text
// becomes a prompt when the user types /name.
//
//	$PTC_HOME/commands/<name>.md        the user's       source "user"
//	<workspace>/.ptc/commands/<name>.md the repository's source "workspace"
//
// A file may start with a YAML front matter (description, argument-hint);
// its body is the prompt, with $ARGUMENTS replaced by everything typed
// after the name and $1 … $9 by its words (quotes group words). Arguments
// given to a command whose text names none of them are added after it,
// so nothing typed is lost.
//
// Commands are read afresh whenever asked for (a new file works without
// a restart), through os.Root (a symlink cannot pull in a file from
// outside the directory), regular files only, capped. A user command wins
// over a workspace command of the same name; a file that cannot be used
// is a warning naming it. A command expands to text the user then sends:
// nothing in it runs.
package slash

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/ptc-dev/ptc/internal/frontmatter"
)

// Sources of a command.
const (
	SourceUser      = "user"
	SourceWorkspace = "workspace"
)

// Where commands live: HomeDir under the ptc home, WorkspaceDir under
// the workspace.
const (
	HomeDir      = "commands"
	WorkspaceDir = ".ptc/commands"
)

// Limits.
const (
	MaxFile     = 64 << 10
	MaxCommands = 256
	maxNameLen  = 64
)

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Command is one custom slash command.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description,omitempty"`
	ArgumentHint string `json:"argumentHint,omitempty"`
	Source       string `json:"source"`
	File         string `json:"file"`
	// Body is the prompt text, before substitution.
	Body string `json:"-"`
}

// Set is the commands found at one moment, sorted by name.
type Set struct {
	Commands []Command
	Warnings []string
}

type front struct {
	Description  string `yaml:"description"`
	ArgumentHint string `yaml:"argument-hint"`
}

// Load reads the commands of home ("" for none) and workspace ("" for
// none).
func Load(workspace, home string) Set {
	var s Set
	seen := map[string]bool{}
	if home != "" {
		s.scan(filepath.Join(home, HomeDir), SourceUser, seen)
	}
	if workspace != "" {
		s.scan(filepath.Join(workspace, filepath.FromSlash(WorkspaceDir)), SourceWorkspace, seen)
	}
	sort.Slice(s.Commands, func(i, j int) bool { return s.Commands[i].Name < s.Commands[j].Name })
	return s
}

// Lookup finds the command called name.
func (s Set) Lookup(name string) (Command, bool) {
	for _, c := range s.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Expand turns input typed as "/name args" into its command's prompt.
// ok is false when input is no call of a command in s (plain text, an
// unknown name, "//text"): then it is to be sent as typed.
func (s Set) Expand(input string) (prompt string, cmd Command, ok bool) {
	name, args, isCall := Parse(input)
	if !isCall {
		return "", Command{}, false
	}
	c, found := s.Lookup(name)
	if !found {
		return "", Command{}, false
	}
	return c.Expand(args), c, true
}

// Parse splits "/name args": a slash, a name, then a space, a newline or
// the end. "//text" and "/usr/bin/x …" are not calls.
func Parse(input string) (name, args string, ok bool) {
	if !strings.HasPrefix(input, "/") || strings.HasPrefix(input, "//") {
		return "", "", false
	}
	rest := input[1:]
	i := strings.IndexAny(rest, " \t\n")
	if i < 0 {
		i = len(rest)
	}
	name = rest[:i]
	if name == "" || strings.ContainsAny(name, "/.") {
		return "", "", false
	}
	return name, strings.TrimSpace(rest[i:]), true
}

// positional matches $ARGUMENTS and $1 … $9.
var positional = regexp.MustCompile(`\$(ARGUMENTS|[1-9])`)

// Expand substitutes args into the command's text.
func (c Command) Expand(args string) string {
	words := Words(args)
	used := false
	out := positional.ReplaceAllStringFunc(c.Body, func(m string) string {
		used = true
		if m == "$ARGUMENTS" {
			return args
		}
		if n := int(m[1] - '0'); n <= len(words) {
			return words[n-1]
		}
		return ""
	})
	out = strings.TrimSpace(out)
	if !used && args != "" {
		out += "\n\nArguments: " + args
	}
	return out
}

// Words splits args into words at blanks; double or single quotes hold
// a word's blanks.
func Words(args string) []string {
	var out []string
	var cur strings.Builder
	quote, inWord := rune(0), false
	for _, r := range args {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

func (s *Set) warnf(format string, args ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf(format, args...))
}

// scan reads the commands of one directory.
func (s *Set) scan(dir, source string, seen map[string]bool) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.warnf("%s: commands not read (%v)", dir, err)
		return
	}
	defer root.Close()
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		s.warnf("%s: commands not read (%v)", dir, err)
		return
	}
	n := 0
	for _, e := range entries {
		name, isMD := strings.CutSuffix(e.Name(), ".md")
		if !isMD || e.IsDir() {
			continue
		}
		file := filepath.Join(dir, e.Name())
		if len(name) > maxNameLen || !validName.MatchString(name) {
			s.warnf("%s: %q is not a command name (lower-case letters, digits, - and _); the command is skipped", file, name)
			continue
		}
		if n == MaxCommands {
			s.warnf("%s: more than %d commands; the rest are skipped", dir, MaxCommands)
			return
		}
		n++
		if seen[name] {
			s.warnf("%s: /%s is also defined in %s, which wins; this one is skipped", file, name, filepath.Join("$PTC_HOME", HomeDir))
			continue
		}
		text, err := readFile(root, e.Name())
		if err != nil {
			s.warnf("%s: not read (%v); the command is skipped", file, err)
			continue
		}
		var f front
		body, _, err := frontmatter.Parse(text, &f)
		if err != nil {
			s.warnf("%s: %v; the command is skipped", file, err)
			continue
		}
		seen[name] = true
		s.Commands = append(s.Commands, Command{Name: name, Description: oneLine(f.Description), ArgumentHint: oneLine(f.ArgumentHint),
			Source: source, File: file, Body: body})
	}
}

// readFile reads a regular file under root, non-blocking, at most
// MaxFile bytes (a longer one is refused: a prompt cut in the middle
// would say something else).
func readFile(root *os.Root, name string) (string, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > MaxFile {
		return "", fmt.Errorf("longer than %d KiB", MaxFile>>10)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
