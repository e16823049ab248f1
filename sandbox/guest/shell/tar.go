package shell

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
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

var archiveCommands = map[string]builtinFunc{
	"tar":    tarCmd,
	"gzip":   gzipCmd,
	"gunzip": func(c *cmd, args []string) int { return gzipCmd(c, append([]string{"-d"}, args...)) },
	"zcat":   func(c *cmd, args []string) int { return gzipCmd(c, append([]string{"-dc"}, args...)) },
	"zip":    zipCmd,
	"unzip":  unzipCmd,
}

// tarOptions is a parsed tar command line.
type tarOptions struct {
	mode     byte // c x t
	file     string
	dir      string
	gzip     bool
	verbose  bool
	toStdout bool
	keepOld  bool
	strip    int
	excludes []string
	operands []string
	haveFile bool
}

// parseTar reads tar's options, the old bundled form (tar czf x.tgz d)
// included.
func parseTar(args []string) (*tarOptions, error) {
	o := &tarOptions{}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append([]string{"-" + args[0]}, args[1:]...)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("option '%s' requires an argument", a)
			}
			i++
			return args[i], nil
		}
		switch {
		case a == "--":
			o.operands = append(o.operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch name {
			case "create", "extract", "get", "list":
				o.mode = map[string]byte{"create": 'c', "extract": 'x', "get": 'x', "list": 't'}[name]
			case "gzip", "gunzip", "ungzip", "auto-compress":
				o.gzip = true
			case "verbose":
				o.verbose = true
			case "to-stdout":
				o.toStdout = true
			case "keep-old-files", "skip-old-files":
				o.keepOld = true
			case "no-same-owner", "no-same-permissions", "overwrite", "preserve-permissions", "same-owner", "numeric-owner":
			case "file", "directory", "exclude", "strip-components":
				if !hasVal {
					v, err := next()
					if err != nil {
						return nil, err
					}
					val = v
				}
				switch name {
				case "file":
					o.file, o.haveFile = val, true
				case "directory":
					o.dir = val
				case "exclude":
					o.excludes = append(o.excludes, val)
				default:
					if _, err := fmt.Sscan(val, &o.strip); err != nil {
						return nil, fmt.Errorf("invalid number of elements: '%s'", val)
					}
				}
			default:
				return nil, fmt.Errorf("unrecognized option '%s'", a)
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				switch f := a[j]; f {
				case 'c', 'x', 't':
					o.mode = f
				case 'z':
					o.gzip = true
				case 'v':
					o.verbose = true
				case 'O':
					o.toStdout = true
				case 'k':
					o.keepOld = true
				case 'p', 'o', 'P':
				case 'j', 'J':
					if o.mode == 'c' || strings.ContainsAny(a, "c") {
						return nil, fmt.Errorf("-%c: only gzip compression (-z) is available in the sandbox", f)
					}
				case 'f', 'C':
					v := a[j+1:]
					if v == "" {
						var err error
						if v, err = next(); err != nil {
							return nil, err
						}
					}
					if f == 'f' {
						o.file, o.haveFile = v, true
					} else {
						o.dir = v
					}
					j = len(a)
				default:
					return nil, fmt.Errorf("invalid option -- '%c'", f)
				}
			}
		default:
			o.operands = append(o.operands, a)
		}
	}
	if o.mode == 0 {
		return nil, errors.New("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
	}
	return o, nil
}

func tarCmd(c *cmd, args []string) int {
	o, err := parseTar(args)
	if err != nil {
		c.fail("%v", err)
		return 2
	}
	if !o.haveFile {
		o.file = "-"
	}
	switch o.mode {
	case 'c':
		return c.tarCreate(o)
	}
	return c.tarRead(o)
}

// tarCreate writes an archive of the operands, directories recursively.
func (c *cmd) tarCreate(o *tarOptions) int {
	if len(o.operands) == 0 {
		c.fail("Cowardly refusing to create an empty archive")
		return 2
	}
	var out io.Writer = c.stdout
	if o.file != "-" {
		f, err := openWrite(c.path(o.file), false)
		if err != nil {
			c.fail("%s: Cannot open: %s", o.file, errText(err))
			return 2
		}
		defer f.Close()
		out = f
	}
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	var zw io.WriteCloser
	if o.gzip {
		zw, _ = newGzipWriter(bw, gzip.DefaultCompression, "")
		defer zw.Close()
		out = zw
	} else {
		out = bw
	}
	tw := tar.NewWriter(out)
	base := c.dir
	if o.dir != "" {
		base = c.path(o.dir)
	}
	status := 0
	archive := filepath.Clean(c.path(o.file))
	for _, op := range o.operands {
		root := op
		if !filepath.IsAbs(root) {
			root = filepath.Join(base, op)
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				c.fail("%s: Cannot stat: %s", op, errText(err))
				status = 2
				return nil
			}
			if p == archive {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			name := path.Join(op, filepath.ToSlash(rel))
			if rel == "." {
				name = op
			}
			name = strings.TrimPrefix(name, "/")
			if op == "." || strings.HasPrefix(op, "./") {
				if !strings.HasPrefix(name, "./") && name != "." {
					name = "./" + name
				}
			}
			if tarExcluded(o.excludes, name, d.Name()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if err := c.tarAdd(tw, p, name, d); err != nil {
				c.fail("%s: %s", name, errText(err))
				status = 2
			} else if o.verbose {
				shown := name
				if d.IsDir() && !strings.HasSuffix(shown, "/") {
					shown += "/"
				}
				fmt.Fprintln(c.stdout, shown)
			}
			return nil
		})
		if err != nil {
			status = 2
		}
	}
	if err := tw.Close(); err != nil {
		c.fail("%v", err)
		return 2
	}
	return status
}

func tarExcluded(patterns []string, name, base string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
		if ok, _ := path.Match(p, strings.TrimPrefix(name, "./")); ok {
			return true
		}
	}
	return false
}

func (c *cmd) tarAdd(tw *tar.Writer, p, name string, d fs.DirEntry) error {
	fi, err := d.Info()
	if err != nil {
		return err
	}
	link := ""
	if fi.Mode()&fs.ModeSymlink != 0 {
		if link, err = os.Readlink(p); err != nil {
			return err
		}
	}
	hdr, err := tar.FileInfoHeader(fi, link)
	if err != nil {
		return err
	}
	hdr.Name = name
	if fi.IsDir() && !strings.HasSuffix(name, "/") {
		hdr.Name += "/"
	}
	hdr.Uname, hdr.Gname = ownerName(c, statOf(fi)), groupName(c, statOf(fi))
	hdr.Format = tar.FormatGNU
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(tw, f)
	return err
}

// decompressed returns r unwrapped from gzip or bzip2 when its first
// bytes say it is compressed, as GNU tar detects on reading.
func decompressed(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		return gzip.NewReader(br)
	case bytes.HasPrefix(magic, []byte("BZh")):
		return bzip2.NewReader(br), nil
	}
	return br, nil
}

// tarRead lists or extracts an archive.
func (c *cmd) tarRead(o *tarOptions) int {
	in, err := c.open(o.file)
	if err != nil {
		c.fail("%s: Cannot open: %s", o.file, errText(err))
		return 2
	}
	defer in.Close()
	r, err := decompressed(in)
	if err != nil {
		c.fail("%v", err)
		return 2
	}
	dest := c.dir
	if o.dir != "" {
		dest = c.path(o.dir)
	}
	w := c.bufOut()
	defer w.Flush()
	tr := tar.NewReader(r)
	status := 0
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.fail("This does not look like a tar archive (%v)", err)
			return 2
		}
		if !tarSelected(o.operands, hdr.Name) {
			continue
		}
		if o.mode == 't' {
			if o.verbose {
				fmt.Fprintf(w, "%s %s/%s %*d %s %s\n", modeString(hdr.FileInfo().Mode()), orDefault(hdr.Uname, "0"), orDefault(hdr.Gname, "0"),
					max(0, 14-len(hdr.Uname)-len(hdr.Gname)), hdr.Size, hdr.ModTime.Format("2006-01-02 15:04"), tarShownName(hdr))
			} else {
				fmt.Fprintln(w, hdr.Name)
			}
			continue
		}
		if o.verbose {
			fmt.Fprintln(w, hdr.Name)
		}
		if o.toStdout {
			if hdr.Typeflag == tar.TypeReg {
				io.Copy(w, tr)
			}
			continue
		}
		if err := c.extractEntry(dest, hdr, tr, o); err != nil {
			w.Flush()
			c.fail("%s: %v", hdr.Name, err)
			status = 2
		}
	}
	return status
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func tarShownName(h *tar.Header) string {
	if h.Typeflag == tar.TypeSymlink {
		return h.Name + " -> " + h.Linkname
	}
	if h.Typeflag == tar.TypeLink {
		return h.Name + " link to " + h.Linkname
	}
	return h.Name
}

func tarSelected(operands []string, name string) bool {
	if len(operands) == 0 {
		return true
	}
	clean := strings.TrimSuffix(strings.TrimPrefix(name, "./"), "/")
	for _, op := range operands {
		op = strings.TrimSuffix(strings.TrimPrefix(op, "./"), "/")
		if clean == op || strings.HasPrefix(clean, op+"/") {
			return true
		}
		if ok, _ := path.Match(op, clean); ok {
			return true
		}
	}
	return false
}

// safeMember turns an archive member name into a path below dest, or
// fails for one that would land outside it (absolute names lose their
// leading slash, as GNU tar does; ".." components are refused).
func safeMember(dest, name string, strip int) (string, error) {
	name = strings.TrimLeft(filepath.ToSlash(name), "/")
	parts := strings.Split(name, "/")
	for _, p := range parts {
		if p == ".." {
			return "", errors.New("member name contains '..'; not extracted")
		}
	}
	if strip > 0 {
		if len(parts) <= strip {
			return "", nil
		}
		parts = parts[strip:]
	}
	rel := path.Clean(strings.Join(parts, "/"))
	if rel == "." || rel == "" {
		return dest, nil
	}
	return filepath.Join(dest, filepath.FromSlash(rel)), nil
}

func (c *cmd) extractEntry(dest string, hdr *tar.Header, r io.Reader, o *tarOptions) error {
	p, err := safeMember(dest, hdr.Name, o.strip)
	if err != nil || p == "" {
		return err
	}
	if o.keepOld {
		if _, err := os.Lstat(p); err == nil && hdr.Typeflag != tar.TypeDir {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return errors.New(errText(err))
	}
	mode := hdr.FileInfo().Mode().Perm()
	switch hdr.Typeflag {
	case tar.TypeDir:
		if err := os.MkdirAll(p, 0o755); err != nil {
			return errors.New(errText(err))
		}
	case tar.TypeReg:
		return writeMember(p, r, mode, hdr)
	case tar.TypeSymlink:
		os.Remove(p)
		if err := os.Symlink(hdr.Linkname, p); err != nil {
			return fmt.Errorf("Cannot create symlink to '%s': %s", hdr.Linkname, errText(err))
		}
		return nil
	case tar.TypeLink:
		target, err := safeMember(dest, hdr.Linkname, o.strip)
		if err != nil {
			return err
		}
		os.Remove(p)
		if err := os.Link(target, p); err != nil {
			return fmt.Errorf("Cannot hard link to '%s': %s", hdr.Linkname, errText(err))
		}
	default:
		if hdr.Typeflag == '\x00' {
			return writeMember(p, r, mode, hdr)
		}
		return errors.New("special file not extracted in the sandbox")
	}
	os.Chtimes(p, hdr.ModTime, hdr.ModTime)
	return nil
}

func writeMember(p string, r io.Reader, mode fs.FileMode, hdr *tar.Header) error {
	os.Remove(p)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode|0o200)
	if err != nil {
		return errors.New("Cannot open: " + errText(err))
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return errors.New("Cannot write: " + errText(err))
	}
	if err := f.Close(); err != nil {
		return errors.New("Cannot write: " + errText(err))
	}
	os.Chtimes(p, hdr.ModTime, hdr.ModTime)
	return nil
}
