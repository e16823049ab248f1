package search

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Matcher matches slash-separated paths against a glob pattern where
// "**" matches any number of path segments and other segments use
// path.Match syntax. A pattern without "/" matches the base name at any
// depth.
type Matcher struct {
	segs     []string // nil when only the base name is matched
	baseOnly string
}

// NewMatcher checks pattern and prepares it.
func NewMatcher(pattern string) (Matcher, error) {
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return Matcher{}, err
	}
	if !strings.Contains(pattern, "/") {
		return Matcher{baseOnly: pattern}, nil
	}
	return Matcher{segs: strings.Split(pattern, "/")}, nil
}

// Match reports whether the slash-separated rel matches.
func (m Matcher) Match(rel string) bool {
	if m.segs == nil {
		ok, _ := path.Match(m.baseOnly, path.Base(rel))
		return ok
	}
	return matchSegs(m.segs, strings.Split(rel, "/"))
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

// Glob lists regular files under req.Path whose path relative to it
// matches req.Pattern, newest first, capped at MaxResults with Total
// counting all matches. Only matches are stat'ed (for their time and
// size). The error is ctx's when it ended first.
func Glob(ctx context.Context, mounts []Mount, req *proto.FileRequest) (proto.FileResponse, error) {
	if req.Pattern == "" {
		return failf(proto.ErrInvalid, "glob needs a pattern such as **/*.go"), nil
	}
	match, err := NewMatcher(req.Pattern)
	if err != nil {
		return failf(proto.ErrInvalid, "bad glob pattern %q: %v", req.Pattern, err), nil
	}
	m, root, ok := resolve(mounts, req.Path)
	if !ok {
		return failf(proto.ErrNotFound, "%s %s", req.Path, outsideText), nil
	}
	limit := maxResults(req)
	var found []proto.Stat
	total := 0
	w := &walker{ctx: ctx, m: m, visit: func(rel, fromRoot string) {
		if !match.Match(fromRoot) {
			return
		}
		if st, e := m.FS.Stat(rel); e == 0 {
			total++
			found = append(found, proto.Stat{Path: m.hostPath(rel), Size: st.Size, ModTime: st.Mtim})
			if len(found) >= 2*limit+1024 { // only the newest limit are returned: keep memory bounded
				found = newestFirst(found)[:limit]
			}
		}
	}}
	if fail, err := w.walk(root); fail != nil || err != nil {
		return deref(fail), err
	}
	found = newestFirst(found)
	resp := proto.FileResponse{Total: total}
	if len(found) > limit {
		found = found[:limit]
	}
	resp.Paths, resp.Truncated = found, total > len(found)
	return resp, nil
}

// newestFirst sorts by modification time, newest first, then by path.
func newestFirst(found []proto.Stat) []proto.Stat {
	sort.Slice(found, func(i, j int) bool {
		if found[i].ModTime != found[j].ModTime {
			return found[i].ModTime > found[j].ModTime
		}
		return found[i].Path < found[j].Path
	})
	return found
}

func deref(r *proto.FileResponse) proto.FileResponse {
	if r == nil {
		return proto.FileResponse{}
	}
	return *r
}
