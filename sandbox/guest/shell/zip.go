package shell

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// gzipCmd compresses (or with -d decompresses) files in place, or stdin
// to stdout; -c writes to stdout, -k keeps the input.
func gzipCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "cdkfqvrtn123456789", permute: true, long: map[string]string{
		"stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d", "keep": "k", "force": "f", "quiet": "q", "test": "t",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	decompress := o.has("d") || o.has("t")
	level := gzip.DefaultCompression
	for l := '1'; l <= '9'; l++ {
		if o.has(string(l)) {
			level = int(l - '0')
		}
	}
	convert := func(dst io.Writer, src io.Reader, name string) error {
		if decompress {
			zr, err := gzip.NewReader(src)
			if err != nil {
				return errors.New("not in gzip format")
			}
			zr.Multistream(true)
			if o.has("t") {
				dst = io.Discard
			}
			_, err = io.Copy(dst, zr)
			return err
		}
		stored := "" // stdin's data is stored with no name, as by GNU gzip
		if name != "" {
			stored = path.Base(name)
		}
		zw, err := newGzipWriter(dst, level, stored)
		if err != nil {
			return err
		}
		if _, err := io.Copy(zw, src); err != nil {
			return err
		}
		return zw.Close()
	}
	if len(o.args) == 0 {
		if !decompress && !o.has("f") && c.stdout == nil {
			return 1
		}
		w := bufio.NewWriter(c.stdout)
		defer w.Flush()
		if err := convert(w, c.stdin, ""); err != nil {
			return c.fail("stdin: %v", err)
		}
		return 0
	}
	status := 0
	for _, n := range o.args {
		if err := c.gzipFile(n, decompress, o.has("c") || o.has("t"), o.has("k"), o.has("f"), convert); err != nil {
			status = c.fail("%s: %v", n, err)
		}
	}
	return status
}

func (c *cmd) gzipFile(n string, decompress, toStdout, keep, force bool, convert func(io.Writer, io.Reader, string) error) error {
	p := c.path(n)
	fi, err := os.Stat(p)
	if err != nil {
		return errors.New(errText(err))
	}
	if fi.IsDir() {
		return errors.New("is a directory -- ignored")
	}
	out := p + ".gz"
	switch {
	case decompress && strings.HasSuffix(p, ".tgz"):
		out = strings.TrimSuffix(p, ".tgz") + ".tar"
	case decompress && strings.HasSuffix(p, ".gz"):
		out = strings.TrimSuffix(p, ".gz")
	case decompress:
		return errors.New("unknown suffix -- ignored")
	case strings.HasSuffix(p, ".gz") && !force:
		return errors.New("already has .gz suffix -- unchanged")
	}
	in, err := os.Open(p)
	if err != nil {
		return errors.New(errText(err))
	}
	defer in.Close()
	if toStdout {
		w := bufio.NewWriter(c.stdout)
		defer w.Flush()
		return convert(w, in, n)
	}
	if _, err := os.Stat(out); err == nil && !force {
		return fmt.Errorf("%s already exists; not overwritten", filepath.Base(out))
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return errors.New(errText(err))
	}
	bw := bufio.NewWriter(f)
	err = convert(bw, in, n)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out)
		return err
	}
	os.Chtimes(out, fi.ModTime(), fi.ModTime())
	if !keep {
		return os.Remove(p)
	}
	return nil
}

// zipCmd adds files (directories with -r) to an archive, replacing
// entries of the same name.
func zipCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "rqjv0123456789", permute: true, long: map[string]string{"recurse-paths": "r", "quiet": "q", "junk-paths": "j"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) < 2 {
		c.fail("error: nothing to do!")
		return 12
	}
	archive := o.args[0]
	if !strings.HasSuffix(archive, ".zip") {
		if _, err := os.Stat(c.path(archive)); err != nil {
			archive += ".zip"
		}
	}
	ap := c.path(archive)
	var kept []*zip.File
	added := map[string]bool{}
	if zr, err := zip.OpenReader(ap); err == nil {
		defer zr.Close()
		kept = zr.File
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	type entry struct{ p, name string }
	var entries []entry
	status := 0
	for _, n := range o.args[1:] {
		root := c.path(n)
		fi, err := os.Stat(root)
		if err != nil {
			c.fail("warning: name not matched: %s", n)
			status = 12
			continue
		}
		if !fi.IsDir() || !o.has("r") {
			name := filepath.ToSlash(n)
			if o.has("j") {
				name = path.Base(name)
			}
			if fi.IsDir() {
				name = strings.TrimSuffix(name, "/") + "/"
			}
			entries = append(entries, entry{root, strings.TrimPrefix(name, "/")})
			continue
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == ap {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			name := path.Join(filepath.ToSlash(n), filepath.ToSlash(rel))
			if o.has("j") {
				if d.IsDir() {
					return nil
				}
				name = path.Base(name)
			}
			if d.IsDir() {
				name += "/"
			}
			entries = append(entries, entry{p, strings.TrimPrefix(name, "/")})
			return nil
		})
	}
	for _, e := range entries {
		added[e.name] = true
	}
	for _, f := range kept {
		if !added[f.Name] {
			if err := zw.Copy(f); err != nil {
				return c.fail("zip error: %v", err)
			}
		}
	}
	for _, e := range entries {
		method, err := addZipEntry(zw, e.p, e.name)
		if err != nil {
			c.fail("%s: %s", e.name, errText(err))
			status = 18
			continue
		}
		if !o.has("q") {
			fmt.Fprintf(c.stdout, "  adding: %s (%s)\n", e.name, method)
		}
	}
	if err := zw.Close(); err != nil {
		return c.fail("zip error: %v", err)
	}
	if err := os.WriteFile(ap, buf.Bytes(), 0o644); err != nil {
		c.fail("zip error: %s", errText(err))
		return 15
	}
	return status
}

func addZipEntry(zw *zip.Writer, p, name string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	hdr, err := zip.FileInfoHeader(fi)
	if err != nil {
		return "", err
	}
	hdr.Name = name
	if fi.IsDir() {
		hdr.Method = zip.Store
		_, err := zw.CreateHeader(hdr)
		return "stored 0%", err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	hdr.Method = zip.Deflate
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		return "", err
	}
	_, err = w.Write(data)
	pct := 0
	if len(data) > 0 {
		var probe bytes.Buffer
		gz, _ := gzip.NewWriterLevel(&probe, gzip.DefaultCompression)
		gz.Write(data)
		gz.Close()
		pct = max(0, 100-100*(probe.Len()-18)/len(data))
	}
	if pct == 0 {
		return "stored 0%", err
	}
	return fmt.Sprintf("deflated %d%%", pct), err
}

// unzipCmd lists (-l), prints (-p) or extracts an archive; names that
// would land outside the destination are refused.
func unzipCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "lqopnd:jv", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(errors.New("usage: unzip [-lqopnj] file[.zip] [list] [-d exdir]"))
	}
	archive := o.args[0]
	if _, err := os.Stat(c.path(archive)); err != nil && !strings.HasSuffix(archive, ".zip") {
		archive += ".zip"
	}
	zr, err := zip.OpenReader(c.path(archive))
	if err != nil {
		c.fail("cannot find or open %s, %s.zip or %s.ZIP.", o.args[0], o.args[0], o.args[0])
		return 9
	}
	defer zr.Close()
	w := c.bufOut()
	defer w.Flush()
	selected := func(name string) bool { return tarSelected(o.args[1:], name) }
	if o.has("l") {
		fmt.Fprintf(w, "Archive:  %s\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n", archive)
		var total uint64
		n := 0
		for _, f := range zr.File {
			if !selected(f.Name) {
				continue
			}
			total += f.UncompressedSize64
			n++
			fmt.Fprintf(w, "%9d  %s   %s\n", f.UncompressedSize64, f.Modified.Format("2006-01-02 15:04"), f.Name)
		}
		fmt.Fprintf(w, "---------                     -------\n%9d                     %d file%s\n", total, n, plural(n))
		return 0
	}
	dest := c.dir
	if o.has("d") {
		dest = c.path(o.val("d"))
	}
	if !o.has("q") && !o.has("p") {
		fmt.Fprintf(w, "Archive:  %s\n", archive)
	}
	status := 0
	for _, f := range zr.File {
		if !selected(f.Name) {
			continue
		}
		if o.has("p") {
			if rc, err := f.Open(); err == nil {
				io.Copy(w, rc)
				rc.Close()
			}
			continue
		}
		name := f.Name
		if o.has("j") {
			if strings.HasSuffix(name, "/") {
				continue
			}
			name = path.Base(name)
		}
		p, err := safeMember(dest, name, 0)
		if err != nil {
			w.Flush()
			c.fail("skipping: %s: %v", f.Name, err)
			status = 1
			continue
		}
		if err := c.unzipEntry(w, f, p, o); err != nil {
			w.Flush()
			c.fail("%s: %v", f.Name, err)
			status = 1
		}
	}
	return status
}

func (c *cmd) unzipEntry(w *bufio.Writer, f *zip.File, p string, o *opts) error {
	shown := p
	if rel, err := filepath.Rel(c.dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	if strings.HasSuffix(f.Name, "/") {
		if !o.has("q") {
			fmt.Fprintf(w, "   creating: %s/\n", shown)
		}
		return os.MkdirAll(p, 0o755)
	}
	if _, err := os.Lstat(p); err == nil {
		if o.has("n") {
			return nil
		}
		if !o.has("o") {
			return errors.New("already exists (use -o to overwrite); not extracted")
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return errors.New(errText(err))
	}
	if !o.has("q") {
		verb := " inflating"
		if f.Method == zip.Store {
			verb = "extracting"
		}
		fmt.Fprintf(w, "%s: %s\n", verb, shown)
	}
	if f.Mode()&fs.ModeSymlink != 0 {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		target, _ := io.ReadAll(io.LimitReader(rc, 4096))
		rc.Close()
		os.Remove(p)
		return os.Symlink(string(target), p)
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	os.Remove(p)
	perm := f.Mode().Perm() | 0o200
	if perm == 0o200 {
		perm = 0o644
	}
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return errors.New(errText(err))
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(p, f.Modified, f.Modified)
}
