package bench

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

// The answers below are computed from the fixture in Go; the scripted
// models of both presets must end with exactly these texts, and the ptc
// program must compute the same text through the real tools.

var (
	ownerRE    = regexp.MustCompile(`TODO\((\w+)\)`)
	funcDeclRE = regexp.MustCompile(`^func (?:\([^)]*\) )?(\w+)`)
	typeDeclRE = regexp.MustCompile(`^type (\w+)`)
	validateRE = regexp.MustCompile(`^func (\([^)]*\) )?Validate\(`)
)

func (f *Fixture) goFiles() []File {
	var out []File
	for _, file := range f.Files {
		if strings.HasSuffix(file.Path, ".go") {
			out = append(out, file)
		}
	}
	return out
}

// largestGoFiles returns the n largest Go files, largest first (ties in
// path order).
func (f *Fixture) largestGoFiles(n int) []File {
	files := f.goFiles()
	sort.SliceStable(files, func(i, j int) bool { return len(files[i].Content) > len(files[j].Content) })
	return files[:n]
}

// todoAnswer: TODO comments per package and their owners.
func todoAnswer(f *Fixture) string {
	type pkg struct {
		n      int
		owners map[string]bool
	}
	pkgs := map[string]*pkg{}
	for _, file := range f.goFiles() {
		dir := path.Dir(file.Path)
		p := pkgs[dir]
		if p == nil {
			p = &pkg{owners: map[string]bool{}}
			pkgs[dir] = p
		}
		for _, line := range strings.Split(file.Content, "\n") {
			if strings.Contains(line, "TODO") {
				p.n++
				if m := ownerRE.FindStringSubmatch(line); m != nil {
					p.owners[m[1]] = true
				}
			}
		}
	}
	var rows []string
	for dir, p := range pkgs {
		row := fmt.Sprintf("%s: %d", dir, p.n)
		if len(p.owners) > 0 {
			row += " (" + strings.Join(sortedKeys(p.owners), ", ") + ")"
		}
		rows = append(rows, row)
	}
	sort.Strings(rows)
	return strings.Join(rows, "; ")
}

// largestAnswer: the three largest Go files with their declarations, and
// go.mod's module, Go version and direct requirements.
func largestAnswer(f *Fixture) string {
	var parts []string
	for _, file := range f.largestGoFiles(3) {
		var types, funcs []string
		for _, line := range strings.Split(file.Content, "\n") {
			if m := typeDeclRE.FindStringSubmatch(line); m != nil {
				types = append(types, m[1])
			}
			if m := funcDeclRE.FindStringSubmatch(line); m != nil {
				funcs = append(funcs, m[1])
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%d bytes): type %s; func %s", file.Path, len(file.Content), strings.Join(types, ", "), strings.Join(funcs, ", ")))
	}
	return strings.Join(parts, " | ") + " | " + goModSummary(f.Lookup("go.mod"))
}

func goModSummary(mod string) string {
	var module, goVersion string
	var reqs []string
	inRequire := false
	for _, line := range strings.Split(mod, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "module "):
			module = strings.TrimPrefix(line, "module ")
		case strings.HasPrefix(line, "go "):
			goVersion = strings.TrimPrefix(line, "go ")
		case line == "require (":
			inRequire = true
		case line == ")":
			inRequire = false
		case inRequire && line != "" && !strings.Contains(line, "// indirect"):
			reqs = append(reqs, line)
		}
	}
	return fmt.Sprintf("module %s, go %s, requires %s", module, goVersion, strings.Join(reqs, ", "))
}

// validateAnswer: every function or method named Validate with its doc
// comment and signature.
func validateAnswer(f *Fixture) string {
	var rows []string
	for _, hit := range validateHits(f) {
		rows = append(rows, fmt.Sprintf("%s:%d: %s — %s", hit.path, hit.line, hit.doc, hit.signature))
	}
	sort.Strings(rows)
	return strings.Join(rows, "; ")
}

type validateHit struct {
	path           string
	line           int
	doc, signature string
}

func validateHits(f *Fixture) []validateHit {
	var hits []validateHit
	for _, file := range f.goFiles() {
		lines := strings.Split(file.Content, "\n")
		for i, line := range lines {
			if !validateRE.MatchString(line) {
				continue
			}
			var doc []string
			for j := i - 1; j >= max(0, i-3) && strings.HasPrefix(lines[j], "//"); j-- {
				doc = append([]string{strings.TrimPrefix(strings.TrimPrefix(lines[j], "//"), " ")}, doc...)
			}
			hits = append(hits, validateHit{file.Path, i + 1, strings.Join(doc, " "), strings.TrimSuffix(line, " {")})
		}
	}
	return hits
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
