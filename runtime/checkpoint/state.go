package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
)

// MaxFileBytes is the largest file whose bytes a checkpoint keeps; a
// larger one is recorded by hash only.
const MaxFileBytes = 8 << 20

// DefaultCapBytes bounds the bytes one session's checkpoints keep.
const DefaultCapBytes = 512 << 20

// ignored reports whether rel is never recorded: anything in a .git
// directory (the repository's own history and state).
func ignored(rel string) bool {
	for _, c := range strings.Split(rel, "/") {
		if c == ".git" {
			return true
		}
	}
	return false
}

// stat reads rel's state in root. keep, when not nil, is asked whether a
// file of that size may be kept and keeps its bytes. A file is hashed
// as it is read, never held whole past MaxFileBytes.
func stat(root *os.Root, rel string, keep func(hash string, b []byte) bool) (session.FileState, error) {
	fi, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return session.FileState{Kind: session.KindAbsent}, nil
	}
	if err != nil {
		return session.FileState{}, err
	}
	mode := uint32(fi.Mode().Perm())
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := root.Readlink(rel)
		if err != nil {
			return session.FileState{}, err
		}
		return session.FileState{Kind: session.KindSymlink, Target: t}, nil
	case fi.IsDir():
		return session.FileState{Kind: session.KindDir, Mode: mode}, nil
	case !fi.Mode().IsRegular():
		return session.FileState{}, errors.New("not a regular file, directory or symlink")
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|oNonblock|oNofollow, 0)
	if err != nil {
		return session.FileState{}, err
	}
	defer f.Close()
	h := sha256.New()
	var body []byte
	if fi.Size() <= MaxFileBytes {
		body, err = io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
		h.Write(body)
	} else {
		_, err = io.Copy(h, f)
	}
	if err != nil {
		return session.FileState{}, err
	}
	st := session.FileState{Kind: session.KindFile, Mode: mode, Size: int64(len(body)), Hash: hex.EncodeToString(h.Sum(nil))}
	if body == nil {
		st.Size = fi.Size()
	}
	if keep != nil && len(body) <= MaxFileBytes && int64(len(body)) == st.Size {
		st.Kept = keep(st.Hash, body)
	}
	return st, nil
}

// same reports whether two states are the same content (the Kept flag
// and size aside).
func same(a, b session.FileState) bool {
	return a.Kind == b.Kind && a.Hash == b.Hash && a.Target == b.Target && (a.Kind != session.KindFile || a.Mode == b.Mode)
}

// join is rel below dir, in the recorder's slash form.
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return path.Join(dir, name)
}
