package tui

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Limits of @path mentions.
const (
	maxAttachBytes = 256 << 10 // per attached file
	maxAttachFiles = 10        // per prompt
	maxIndexed     = 20000     // paths the completion index holds
	maxSuggestions = 8
)

// skippedDirs are never offered for completion.
var skippedDirs = map[string]bool{".git": true, "node_modules": true, ".hg": true, ".svn": true}

// indexWorkspace lists the workspace's files and directories (relative,
// slash-separated, directories ending in /) for @path completion. It
// does not follow symlinks and stops at maxIndexed entries.
func indexWorkspace(root string) []string {
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		if len(out) >= maxIndexed {
			return filepath.SkipAll
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			out = append(out, rel+"/")
			return nil
		}
		out = append(out, rel)
		return nil
	})
	sort.Strings(out)
	return out
}

// suggest ranks indexed paths for the fragment typed after @: paths
// starting with it, then paths whose file name starts with it, then paths
// containing it; shorter first within each group.
func suggest(index []string, frag string) []string {
	type scored struct {
		p    string
		rank int
	}
	var hits []scored
	lf := strings.ToLower(frag)
	for _, p := range index {
		lp := strings.ToLower(p)
		base := strings.ToLower(filepath.Base(strings.TrimSuffix(p, "/")))
		switch {
		case strings.HasPrefix(lp, lf):
			hits = append(hits, scored{p, 0})
		case strings.HasPrefix(base, lf):
			hits = append(hits, scored{p, 1})
		case strings.Contains(lp, lf):
			hits = append(hits, scored{p, 2})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		return len(hits[i].p) < len(hits[j].p)
	})
	var out []string
	for _, h := range hits {
		if len(out) == maxSuggestions {
			break
		}
		out = append(out, h.p)
	}
	return out
}

// lastWord is the word the input ends with ("" after a space).
func lastWord(s string) string {
	i := strings.LastIndexAny(s, " \t\n")
	return s[i+1:]
}

// attachMentions appends every file the text mentions as @path (relative
// to the workspace, or absolute inside it) to the prompt, in the form
// splitAttachments reads back. notes say what could not be attached.
func attachMentions(text, workspace string) (prompt string, attached, notes []string) {
	var b strings.Builder
	b.WriteString(text)
	seen := map[string]bool{}
	for _, w := range strings.Fields(text) {
		if !strings.HasPrefix(w, "@") || len(w) < 2 {
			continue
		}
		p := strings.TrimRight(w[1:], ",.;:!?)'\"")
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if len(attached) == maxAttachFiles {
			notes = append(notes, "only "+strconv.Itoa(maxAttachFiles)+" files are attached per prompt; @"+p+" was not")
			continue
		}
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(workspace, p)
		}
		tr := tracker{workspace: workspace}
		abs, ok := tr.resolve(abs)
		if !ok {
			notes = append(notes, "@"+p+" is outside the workspace; not attached")
			continue
		}
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			continue // a directory mention is just text
		}
		content, found, why := readWorkspaceFile(workspace, abs)
		switch {
		case !found && why == "":
			continue // no such file: an @ in ordinary text
		case why != "":
			notes = append(notes, "@"+p+": "+why+"; not attached")
			continue
		case len(content) > maxAttachBytes:
			notes = append(notes, "@"+p+" is larger than "+strconv.Itoa(maxAttachBytes>>10)+" KiB; not attached (ask the agent to read it)")
			continue
		}
		rel, _ := filepath.Rel(workspace, abs)
		rel = filepath.ToSlash(rel)
		b.WriteString(attachmentOpen + strconv.Quote(rel) + ">\n" + content)
		if !strings.HasSuffix(content, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("</attached-file>")
		attached = append(attached, rel)
	}
	return b.String(), attached, notes
}
