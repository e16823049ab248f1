package hostexec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A program in the sandbox keeps ptc's uid. When that is root (a
// container, CI), it could read every root-only file under the system
// roots mounted into the sandbox: /etc/ssl/private, /etc/shadow, a
// service's credentials under /opt. So when ptc runs as root, everything
// under the system roots that an unprivileged user could not read (a
// file without the "other" read bit, a directory without "other" read
// and search) is masked: an empty read-only file or directory is mounted
// over it. Under any other uid the kernel already refuses those reads.
//
// /etc and /opt are walked afresh by every process (a few milliseconds);
// /usr holds the bulk of the files (~160 000 here, 1.4 s to walk) and
// changes with package installs, so its list is kept in the sandbox root
// for maskTTL, and sooner replaced when the package database or a root
// directory changed.

// mask is one path to hide.
type mask struct {
	Path string `json:"path"`
	Dir  bool   `json:"dir,omitempty"`
}

// freshRoots are walked by every process; the other system roots come
// from the cache when it is valid.
var freshRoots = []string{"/etc", "/opt"}

// maskTTL bounds how long a cached list of /usr masks is trusted.
const maskTTL = time.Hour

// maskCacheFile holds the cached lists, in the sandbox root.
const maskCacheFile = "masks.json"

// maskCacheVersion changes when what the cache means changes.
const maskCacheVersion = 1

// masksFor returns the masks of the system roots (none unless euid is 0).
func (r *Runner) masksFor() []mask {
	r.maskOnce.Do(func() {
		if os.Geteuid() != 0 {
			return
		}
		root, err := r.root()
		if err != nil {
			root = ""
		}
		r.masks = computeMasks(systemRoots, root, time.Now())
	})
	return r.masks
}

// computeMasks walks the real directories among roots (cachedRoots from
// the cache in dir when valid; dir "" caches nothing).
func computeMasks(roots []string, dir string, now time.Time) []mask {
	var out []mask
	var cached []string
	for _, root := range roots {
		info, err := os.Lstat(root)
		if err != nil || !info.IsDir() {
			continue
		}
		if slices.Contains(freshRoots, root) {
			out = walkMasks(root, out)
		} else {
			cached = append(cached, root)
		}
	}
	if len(cached) == 0 {
		return out
	}
	stamp := maskStamp(cached)
	path := ""
	if dir != "" {
		path = filepath.Join(dir, maskCacheFile)
		if ms, ok := readMaskCache(path, stamp, now); ok {
			return append(out, ms...)
		}
	}
	var ms []mask
	for _, root := range cached {
		ms = walkMasks(root, ms)
	}
	if path != "" {
		writeMaskCache(path, stamp, now, ms)
	}
	return append(out, ms...)
}

// maskStamp names the state the cached list was made from: the roots'
// own times and those of the package databases.
func maskStamp(roots []string) string {
	var b strings.Builder
	for _, p := range append(append([]string(nil), roots...), "/var/lib/dpkg/status", "/var/lib/rpm", "/var/lib/pacman/local", "/lib/apk/db/installed") {
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil {
			fmt.Fprintf(&b, "%s:%d.%d:%d.%d;", p, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
		}
	}
	return b.String()
}

type maskCache struct {
	Version int    `json:"version"`
	Stamp   string `json:"stamp"`
	Made    int64  `json:"made"` // Unix seconds
	Masks   []mask `json:"masks"`
}

func readMaskCache(path, stamp string, now time.Time) ([]mask, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var c maskCache
	if json.Unmarshal(b, &c) != nil || c.Version != maskCacheVersion || c.Stamp != stamp {
		return nil, false
	}
	if age := now.Sub(time.Unix(c.Made, 0)); age < 0 || age > maskTTL {
		return nil, false
	}
	return c.Masks, true
}

func writeMaskCache(path, stamp string, now time.Time, ms []mask) {
	b, err := json.Marshal(maskCache{Version: maskCacheVersion, Stamp: stamp, Made: now.Unix(), Masks: ms})
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".masks-*")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
}

// walkMasks appends the masks under dir: a directory an unprivileged user
// cannot list and enter is masked whole (and not entered), a file it
// cannot read is masked; symlinks are left alone (their target is checked
// where it lies).
func walkMasks(dir string, out []mask) []mask {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return out
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	slices.Sort(names)
	for _, name := range names {
		var st unix.Stat_t
		if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		p := dir + "/" + name
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
		case unix.S_IFDIR:
			if st.Mode&0o005 != 0o005 {
				out = append(out, mask{Path: p, Dir: true})
				continue
			}
			out = walkMasks(p, out)
		case unix.S_IFREG:
			if st.Mode&0o004 == 0 {
				out = append(out, mask{Path: p})
			}
		default: // a socket, FIFO or device under /etc is no business of a build
			out = append(out, mask{Path: p})
		}
	}
	return out
}

// maskArgs hides each mask that does not lie in one of the program's own
// directories: a file under an empty read-only file, a directory under
// an empty read-only tmpfs.
func maskArgs(masks []mask, own []string) []string {
	var a []string
	for _, m := range masks {
		if slices.ContainsFunc(own, func(d string) bool { return d != "" && within(m.Path, d) }) {
			continue
		}
		if m.Dir {
			a = append(a, "--perms", "0000", "--tmpfs", m.Path, "--remount-ro", m.Path)
		} else {
			a = append(a, "--ro-bind", "/dev/null", m.Path)
		}
	}
	return a
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }
