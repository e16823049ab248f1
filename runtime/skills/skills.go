// Package skills finds and reads Agent Skills: a directory holding a
// SKILL.md whose YAML front matter names the skill and says when to use
// it, whose markdown body is the instructions, and beside which any other
// files (scripts, references, templates) may lie.
//
//	$PTC_HOME/skills/<dir>/SKILL.md      the user's own        source "user"
//	<workspace>/.ptc/skills/<dir>/        the repository's      source "workspace"
//	<workspace>/.agents/skills/<dir>/
//	<workspace>/.claude/skills/<dir>/     (for compatibility)
//
// Discover reads only the front matter of each; the system prompt lists
// the names and descriptions (Section, capped), and the skill tool loads
// one skill's body and the list of its other files when the model asks
// (Catalog.Load), so a long skill costs nothing until it is used.
//
// A repository controls its skills: they are text, read through os.Root
// at the workspace (a symlink cannot pull in a file from outside it),
// regular files only, opened non-blocking, size-capped, and never run —
// a script a skill names runs only if the model runs it, as an ordinary
// sandboxed command. A user skill wins over a workspace skill of the same
// name, so a repository cannot replace the instructions a user relies
// on. A malformed SKILL.md is a warning naming the file, never a failure
// of the session.
package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/ptc-dev/ptc/internal/frontmatter"
)

// Sources of a skill.
const (
	SourceUser      = "user"
	SourceWorkspace = "workspace"
)

// FileName is the file that makes a directory a skill.
const FileName = "SKILL.md"

// WorkspaceDirs are the workspace directories searched for skills, in
// order; HomeDir is the one under $PTC_HOME.
var WorkspaceDirs = []string{".ptc/skills", ".agents/skills", ".claude/skills"}

// HomeDir is where the user's skills live, relative to the ptc home.
const HomeDir = "skills"

// Limits.
const (
	// MaxFile caps what is read of a SKILL.md (the body beyond it is
	// cut, with a note).
	MaxFile = 256 << 10
	// MaxNameLen and MaxDescription are the Agent Skills format's
	// limits on the front matter fields.
	MaxNameLen     = 64
	MaxDescription = 1024
	// MaxPerDir caps the skills read from one skills directory.
	MaxPerDir = 256
	// MaxFiles caps the other files listed for one skill.
	MaxFiles = 200
)

// validName is the Agent Skills format's name: lower-case letters,
// digits and single hyphens between them.
var validName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Skill is one discovered skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is SourceUser or SourceWorkspace; Root is the directory
	// searched, relative to the home or the workspace (".ptc/skills").
	Source string `json:"source"`
	Root   string `json:"root"`
	// Dir is the skill's directory and File its SKILL.md, absolute (the
	// sandbox shows the workspace and the user's skills at these paths,
	// so read opens them).
	Dir  string `json:"dir"`
	File string `json:"file"`

	base string // the workspace or the home the paths are read under
	rel  string // Dir relative to base, slash-separated
}

// Catalog is the skills found for one workspace and home, sorted by
// name, with the warnings finding them produced. It does not change
// after Discover.
type Catalog struct {
	skills   []Skill
	warnings []string
}

// front is the part of a SKILL.md front matter ptc reads; other keys
// (license, allowed-tools, metadata…) are allowed and ignored.
type front struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// Discover finds the skills of home (the ptc home; "" for none) and
// workspace ("" for none).
func Discover(workspace, home string) *Catalog {
	c := &Catalog{}
	seen := map[string]string{}
	if home != "" {
		c.scan(home, HomeDir, SourceUser, seen)
	}
	if workspace != "" {
		for _, dir := range WorkspaceDirs {
			c.scan(workspace, dir, SourceWorkspace, seen)
		}
	}
	sort.Slice(c.skills, func(i, j int) bool { return c.skills[i].Name < c.skills[j].Name })
	return c
}

// Skills are the skills found, sorted by name (a copy).
func (c *Catalog) Skills() []Skill {
	if c == nil {
		return nil
	}
	return append([]Skill(nil), c.skills...)
}

// Warnings say which SKILL.md files were skipped or changed, and why,
// each naming the file.
func (c *Catalog) Warnings() []string {
	if c == nil {
		return nil
	}
	return append([]string(nil), c.warnings...)
}

// Len is how many skills were found.
func (c *Catalog) Len() int {
	if c == nil {
		return 0
	}
	return len(c.skills)
}

// Lookup finds the skill called name.
func (c *Catalog) Lookup(name string) (Skill, bool) {
	if c == nil {
		return Skill{}, false
	}
	i := sort.Search(len(c.skills), func(i int) bool { return c.skills[i].Name >= name })
	if i < len(c.skills) && c.skills[i].Name == name {
		return c.skills[i], true
	}
	return Skill{}, false
}

func (c *Catalog) warnf(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// scan reads the skills of one skills directory, dir under base.
func (c *Catalog) scan(base, dir, source string, seen map[string]string) {
	root, err := os.OpenRoot(base)
	if err != nil {
		return
	}
	defer root.Close()
	entries, err := fs.ReadDir(root.FS(), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		c.warnf("%s: skills not read (%v)", filepath.Join(base, dir), err)
		return
	}
	n := 0
	for _, e := range entries {
		rel := path.Join(dir, e.Name())
		if st, err := root.Stat(rel); err != nil || !st.IsDir() {
			continue
		}
		if n == MaxPerDir {
			c.warnf("%s: more than %d skill directories; the rest are skipped", filepath.Join(base, dir), MaxPerDir)
			return
		}
		n++
		s, ok := c.read(root, base, rel, source, dir, e.Name())
		if !ok {
			continue
		}
		if prev, dup := seen[s.Name]; dup {
			c.warnf("%s: skill %q is also defined in %s, which wins; this one is skipped", s.File, s.Name, prev)
			continue
		}
		seen[s.Name] = s.File
		c.skills = append(c.skills, s)
	}
}

// read reads one skill's front matter; false (with a warning when it
// is not a plain absence) when the directory holds no usable skill.
func (c *Catalog) read(root *os.Root, base, rel, source, dir, dirName string) (Skill, bool) {
	file := filepath.Join(base, filepath.FromSlash(rel), FileName)
	text, _, err := readFile(root, path.Join(rel, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return Skill{}, false
	}
	if err != nil {
		c.warnf("%s: not read (%v); the skill is skipped", file, err)
		return Skill{}, false
	}
	var f front
	if _, has, err := frontmatter.Parse(text, &f); err != nil || !has {
		if err == nil {
			err = errors.New("no front matter: it must start with a --- line, then name: and description:, then ---")
		}
		c.warnf("%s: %v; the skill is skipped", file, err)
		return Skill{}, false
	}
	f.Name, f.Description = strings.TrimSpace(f.Name), oneLine(f.Description)
	switch {
	case f.Name == "":
		c.warnf("%s: the front matter has no name; the skill is skipped", file)
		return Skill{}, false
	case len(f.Name) > MaxNameLen || !validName.MatchString(f.Name):
		c.warnf("%s: the name %q is not a skill name (lower-case letters, digits and single hyphens, at most %d characters); the skill is skipped", file, clipName(f.Name), MaxNameLen)
		return Skill{}, false
	case f.Description == "":
		c.warnf("%s: the front matter has no description (it says when to use the skill); the skill is skipped", file)
		return Skill{}, false
	}
	if len(f.Description) > MaxDescription {
		f.Description = cut(f.Description, MaxDescription)
		c.warnf("%s: the description is longer than %d characters; it is cut", file, MaxDescription)
	}
	if f.Name != dirName {
		c.warnf("%s: the name %q differs from its directory %q (the format wants them equal); it is loaded as %q", file, f.Name, dirName, f.Name)
	}
	return Skill{Name: f.Name, Description: f.Description, Source: source, Root: dir,
		Dir: filepath.Join(base, filepath.FromSlash(rel)), File: file, base: base, rel: rel}, true
}

// readFile reads rel under root: a regular file only, opened without
// blocking (a FIFO cannot hang the session), at most MaxFile bytes (cut
// reports more).
func readFile(root *os.Root, rel string) (text string, cut bool, err error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if !st.Mode().IsRegular() {
		return "", false, errors.New("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return "", false, err
	}
	if len(b) > MaxFile {
		b, cut = b[:MaxFile], true
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), cut, nil
}

// oneLine joins a description's lines (YAML block scalars keep them).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut shortens s to at most n bytes at a character boundary, marking it.
func cut(s string, n int) string {
	for n > 0 && n < len(s) && !isStart(s[n]) {
		n--
	}
	if n >= len(s) {
		return s
	}
	return s[:n] + "…"
}

func isStart(b byte) bool { return b&0xC0 != 0x80 }

// clipName keeps a warning about a hostile name short.
func clipName(s string) string { return cut(s, 80) }
