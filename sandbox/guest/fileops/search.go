package fileops

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// skipDirs are never descended into by glob and grep: they are large and
// almost never what a search is after.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// MatchGlob reports whether the slash-separated rel matches pattern, where
// "**" matches any number of path segments and other segments use
// path.Match syntax.
func MatchGlob(pattern, rel string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// walkFiles calls f for every regular file under root (root itself when it
// is a file), in lexical order, with its path relative to root.
func walkFiles(root string, f func(p, rel string, fi fs.FileInfo)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			rel = d.Name()
		}
		f(p, filepath.ToSlash(rel), fi)
		return nil
	})
}

func maxResults(req *proto.FileRequest) int {
	if req.MaxResults > 0 {
		return req.MaxResults
	}
	return DefaultResults
}

// Glob lists regular files under req.Path whose relative path matches
// req.Pattern (a pattern without "/" matches the base name at any depth),
// newest first, capped at MaxResults with Total counting all matches.
func Glob(req *proto.FileRequest) proto.FileResponse {
	if req.Pattern == "" {
		return failf(proto.ErrInvalid, "glob needs a pattern such as **/*.go")
	}
	if _, err := path.Match(strings.ReplaceAll(req.Pattern, "**", "*"), ""); err != nil {
		return failf(proto.ErrInvalid, "bad glob pattern %q: %v", req.Pattern, err)
	}
	pattern := req.Pattern
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	var found []proto.Stat
	err := walkFiles(req.Path, func(p, rel string, fi fs.FileInfo) {
		if MatchGlob(pattern, rel) {
			found = append(found, proto.Stat{Path: p, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()})
		}
	})
	if err != nil {
		return fromErr(req.Path, err)
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].ModTime != found[j].ModTime {
			return found[i].ModTime > found[j].ModTime
		}
		return found[i].Path < found[j].Path
	})
	resp := proto.FileResponse{Total: len(found)}
	if limit := maxResults(req); len(found) > limit {
		found, resp.Truncated = found[:limit], true
	}
	resp.Paths = found
	return resp
}

// Grep searches regular text files under req.Path (binary files are
// skipped) for the RE2 pattern, optionally only files whose base name or
// relative path matches Include. Matches come in path order with line
// numbers, capped at MaxResults; Total counts all matching lines.
func Grep(req *proto.FileRequest) proto.FileResponse {
	expr := req.Pattern
	if req.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return failf(proto.ErrInvalid, "bad regular expression %q: %v", req.Pattern, err)
	}
	limit := maxResults(req)
	resp := proto.FileResponse{}
	err = walkFiles(req.Path, func(p, rel string, _ fs.FileInfo) {
		if req.Include != "" && !includeMatches(req.Include, rel) {
			return
		}
		data, err := os.ReadFile(p)
		if err != nil || isBinary(data) {
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for n := 1; sc.Scan(); n++ {
			if !re.Match(sc.Bytes()) {
				continue
			}
			resp.Total++
			if len(resp.Matches) < limit {
				resp.Matches = append(resp.Matches, proto.Match{Path: p, Line: n, Text: cutLine(sc.Text())})
			}
		}
	})
	if err != nil {
		return fromErr(req.Path, err)
	}
	resp.Truncated = resp.Total > len(resp.Matches)
	return resp
}

func includeMatches(include, rel string) bool {
	if strings.Contains(include, "/") {
		return MatchGlob(include, rel)
	}
	ok, _ := path.Match(include, path.Base(rel))
	return ok
}
