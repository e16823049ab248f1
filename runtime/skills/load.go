package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/internal/frontmatter"
)

// Loaded is one skill as the skill tool returns it: its instructions and
// the other files of its directory.
type Loaded struct {
	Skill
	// Body is the markdown after the front matter, trimmed.
	Body string `json:"body"`
	// Files are the skill's other regular files, sorted, at most
	// MaxFiles; their paths are absolute, for read.
	Files []File `json:"files"`
	// Note says what was cut (a body over MaxFile, files over MaxFiles).
	Note string `json:"note,omitempty"`
}

// File is one file of a skill besides its SKILL.md.
type File struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

// maxDepth bounds how deep a skill's files are listed.
const maxDepth = 6

// Load reads the skill called name again (it may have changed since
// Discover): the body and the list of its other files. A skill that is
// no longer readable, or whose front matter no longer names it, is an
// error saying so.
func (c *Catalog) Load(name string) (Loaded, error) {
	s, ok := c.Lookup(name)
	if !ok {
		return Loaded{}, fmt.Errorf("no skill named %q", name)
	}
	root, err := os.OpenRoot(s.base)
	if err != nil {
		return Loaded{}, fmt.Errorf("skill %s: %w", name, err)
	}
	defer root.Close()
	text, cut, err := readFile(root, path.Join(s.rel, FileName))
	if err != nil {
		return Loaded{}, fmt.Errorf("skill %s: %s is no longer readable: %w", name, s.File, err)
	}
	var f front
	body, _, err := frontmatter.Parse(text, &f)
	if err != nil {
		return Loaded{}, fmt.Errorf("skill %s: %s: %w", name, s.File, err)
	}
	if strings.TrimSpace(f.Name) != name {
		return Loaded{}, fmt.Errorf("skill %s: %s now names the skill %q; start a new session to see the change", name, s.File, strings.TrimSpace(f.Name))
	}
	l := Loaded{Skill: s, Body: strings.TrimSpace(body), Files: []File{}}
	if cut {
		l.Note = fmt.Sprintf("SKILL.md is longer than %d KiB; the body is cut there", MaxFile>>10)
	}
	more := false
	walkErr := fs.WalkDir(root.FS(), s.rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner of the skill is left out
		}
		depth := strings.Count(strings.TrimPrefix(p, s.rel), "/")
		if d.IsDir() {
			if depth >= maxDepth || p != s.rel && strings.HasPrefix(d.Name(), ".git") {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || p == path.Join(s.rel, FileName) {
			return nil
		}
		if len(l.Files) == MaxFiles {
			more = true
			return fs.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		l.Files = append(l.Files, File{Path: filepath.Join(s.base, filepath.FromSlash(p)), Bytes: info.Size()})
		return nil
	})
	if walkErr != nil && !errors.Is(walkErr, fs.SkipAll) {
		return Loaded{}, fmt.Errorf("skill %s: listing its files: %w", name, walkErr)
	}
	if more {
		l.Note = joinNote(l.Note, fmt.Sprintf("only the first %d files are listed", MaxFiles))
	}
	return l, nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
