package harness

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ptc-dev/ptc/runtime/prompt"
)

// InstructionsFile is the project-instructions file read from the
// workspace and its parents up to the repository root.
const InstructionsFile = "AGENTS.md"

// Project instructions limits: each file, and all of them together.
const (
	maxInstructionsFile  = 32 << 10
	maxInstructionsTotal = 64 << 10
)

// orderProject places project instructions after the preset's tool
// guidance (1000–2999) and before the SDK (5000): they change less often
// than an MCP tool set, so the provider's prefix cache keeps them.
const orderProject = 3000

// ProjectInstructions is the system prompt section made of the AGENTS.md
// files that apply to workspace: the one at the workspace root and those
// in its parent directories up to the repository root (the nearest
// directory above holding .git), outermost first, so the most specific
// file comes last. Outside a repository only the workspace's own file
// counts.
//
// The files are read once per composition (session open, settings
// change), so the system text stays byte-stable between requests; an
// edited AGENTS.md applies from the next session (or settings change).
// A repository controls these files, so they are read through os.Root at
// the repository root (a symlink cannot pull in a file from outside it,
// say a key under ~/.ssh), only as regular files (opened non-blocking: a
// FIFO cannot hang the session), cut at maxInstructionsFile each and
// maxInstructionsTotal together, and kept verbatim (their braces are not
// prompt variables). notes say what was skipped or cut. The section is
// empty (and dropped from the prompt) when no file applies.
func ProjectInstructions(workspace string) (section prompt.Section, notes []string) {
	section = prompt.Section{Name: "project-instructions", Order: orderProject, Verbatim: true}
	if workspace == "" {
		return section, nil
	}
	repo := repoRoot(workspace)
	root, err := os.OpenRoot(repo)
	if err != nil {
		return section, []string{fmt.Sprintf("%s files not read: %v", InstructionsFile, err)}
	}
	defer root.Close()
	var parts []string
	total := 0
	for _, dir := range dirsDown(repo, workspace) {
		rel := filepath.Join(dir, InstructionsFile)
		text, note := readInstructions(root, rel)
		if note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", filepath.Join(repo, rel), note))
		}
		if text == "" {
			continue
		}
		if total+len(text) > maxInstructionsTotal {
			notes = append(notes, fmt.Sprintf("%s: left out, the project instructions already hold %d KiB", filepath.Join(repo, rel), maxInstructionsTotal>>10))
			continue
		}
		total += len(text)
		parts = append(parts, fmt.Sprintf("<%s path=%q>\n%s\n</%s>", InstructionsFile, filepath.ToSlash(rel), strings.TrimSpace(text), InstructionsFile))
	}
	if len(parts) == 0 {
		return section, notes
	}
	section.Text = "Project instructions from the repository's " + InstructionsFile + " files, the outermost first; where they disagree, the later (more specific) one wins. Follow them unless the user says otherwise.\n\n" +
		strings.Join(parts, "\n\n")
	return section, notes
}

// repoRoot is the nearest directory at or above workspace holding .git,
// or workspace itself when there is none.
func repoRoot(workspace string) string {
	for dir := filepath.Clean(workspace); ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Clean(workspace)
		}
		dir = parent
	}
}

// dirsDown lists the directories from repo down to workspace, relative
// to repo ("." first).
func dirsDown(repo, workspace string) []string {
	rel, err := filepath.Rel(repo, workspace)
	if err != nil || rel == "." {
		return []string{"."}
	}
	out := []string{"."}
	cur := ""
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		out = append(out, cur)
	}
	return out
}

// readInstructions reads one file under root; "" without a note when it
// does not exist.
func readInstructions(root *os.Root, rel string) (text, note string) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		return "", ""
	}
	if err != nil {
		return "", "not read (" + err.Error() + ")"
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", "not read: not a regular file"
	}
	b, err := io.ReadAll(io.LimitReader(f, maxInstructionsFile+1))
	if err != nil {
		return "", "not read (" + err.Error() + ")"
	}
	if len(b) > maxInstructionsFile {
		b = b[:maxInstructionsFile]
		note = fmt.Sprintf("cut to its first %d KiB", maxInstructionsFile>>10)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), note
}
