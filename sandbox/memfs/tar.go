package memfs

import (
	"archive/tar"
	"io"
	"io/fs"
	"path"
	"time"
)

// WriteTar writes the whole tree as a tar (directories before what they
// hold, then regular files with their bytes and symlinks), the form of
// package hostexec's change streams, so a host program's sandbox can be
// given the same /tmp.
func (f *FS) WriteTar(w io.Writer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	tw := tar.NewWriter(w)
	if err := writeTree(tw, f.root, ""); err != nil {
		return err
	}
	return tw.Close()
}

func writeTree(tw *tar.Writer, dir *node, rel string) error {
	for _, name := range names(dir) {
		n := dir.children[name]
		p := path.Join(rel, name)
		hdr := &tar.Header{Name: p, Mode: int64(n.mode.Perm()), ModTime: time.Unix(0, n.mtim), Format: tar.FormatPAX}
		switch {
		case n.mode.IsDir():
			hdr.Typeflag, hdr.Name = tar.TypeDir, p+"/"
		case n.mode&fs.ModeSymlink != 0:
			hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, n.target
		default:
			hdr.Typeflag, hdr.Size = tar.TypeReg, int64(len(n.data))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeReg {
			if _, err := tw.Write(n.data); err != nil {
				return err
			}
		}
		if n.mode.IsDir() {
			if err := writeTree(tw, n, p); err != nil {
				return err
			}
		}
	}
	return nil
}
