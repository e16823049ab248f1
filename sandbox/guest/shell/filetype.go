package shell

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"
)

var fileTypeCommands = map[string]builtinFunc{"file": fileCmd}

// fileCmd guesses what each file holds from its first bytes, as file(1)
// does for the common kinds: archives, images, executables, scripts,
// JSON/XML/HTML and plain text with its encoding and line endings.
func fileCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "bLhiz", permute: true, long: map[string]string{"brief": "b", "mime": "i", "mime-type": "i", "dereference": "L"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(fmt.Errorf("Usage: file [-bL] file..."))
	}
	width := 0
	for _, n := range o.args {
		width = max(width, utf8.RuneCountInString(n))
	}
	for _, n := range o.args {
		desc := c.describe(n, o.has("L"))
		if o.has("i") {
			desc = mimeOf(desc)
		}
		if o.has("b") {
			fmt.Fprintln(c.stdout, desc)
			continue
		}
		fmt.Fprintf(c.stdout, "%s:%s %s\n", n, strings.Repeat(" ", width-utf8.RuneCountInString(n)), desc)
	}
	return 0
}

func (c *cmd) describe(n string, follow bool) string {
	p := c.path(n)
	if d, ok := openDevice(p); ok {
		return fmt.Sprintf("character special (%d/%d)", d.major, d.minor)
	}
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(p)
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (%s)", n, errText(err))
	}
	switch {
	case fi.IsDir():
		return "directory"
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := os.Readlink(p)
		return "symbolic link to " + t
	case fi.Mode()&fs.ModeNamedPipe != 0:
		return "fifo (named pipe)"
	case !fi.Mode().IsRegular():
		return "special"
	case fi.Size() == 0:
		return "empty"
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (%s)", n, errText(err))
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	k, _ := io.ReadFull(f, head)
	head = head[:k]
	if bytes.HasPrefix(head, []byte("\x1f\x8b")) {
		tail := make([]byte, 4)
		if _, err := f.ReadAt(tail, fi.Size()-4); err != nil {
			tail = nil
		}
		return gzipDescription(head, tail)
	}
	if d := magic(head); d != "" {
		return d
	}
	return textKind(head)
}

// magic recognises binary formats by their signatures.
func magic(b []byte) string {
	has := func(prefix string) bool { return bytes.HasPrefix(b, []byte(prefix)) }
	switch {
	case has("\x89PNG\r\n\x1a\n") && len(b) >= 26 && string(b[12:16]) == "IHDR":
		w, h := binary.BigEndian.Uint32(b[16:20]), binary.BigEndian.Uint32(b[20:24])
		return fmt.Sprintf("PNG image data, %d x %d, %d-bit", w, h, b[24])
	case has("\xff\xd8\xff"):
		return "JPEG image data"
	case has("GIF87a"), has("GIF89a"):
		return fmt.Sprintf("GIF image data, version %s,", b[3:6])
	case has("%PDF-") && len(b) >= 8:
		return "PDF document, version " + strings.TrimSpace(string(b[5:8]))
	case has("PK\x03\x04") && len(b) >= 10:
		v := binary.LittleEndian.Uint16(b[4:6])
		method := map[uint16]string{0: "store", 8: "deflate"}[binary.LittleEndian.Uint16(b[8:10])]
		d := fmt.Sprintf("Zip archive data, at least v%d.%d to extract", v/10, v%10)
		if method != "" {
			d += ", compression method=" + method
		}
		return d
	case has("\x1f\x8b"):
		return gzipDescription(b, nil)
	case has("BZh"):
		return "bzip2 compressed data, block size = " + string(b[3]) + "00k"
	case has("\xfd7zXZ\x00"):
		return "XZ compressed data"
	case has("\x7fELF") && len(b) >= 6:
		bits := map[byte]string{1: "32-bit", 2: "64-bit"}[b[4]]
		order := map[byte]string{1: "LSB", 2: "MSB"}[b[5]]
		return strings.TrimSpace("ELF " + bits + " " + order)
	case has("\x00asm") && len(b) >= 8:
		return fmt.Sprintf("WebAssembly (wasm) binary module version 0x%x (MVP)", binary.LittleEndian.Uint32(b[4:8]))
	case len(b) >= 263 && string(b[257:262]) == "ustar":
		if string(b[257:265]) == "ustar  \x00" {
			return "POSIX tar archive (GNU)"
		}
		return "POSIX tar archive"
	case has("SQLite format 3\x00"):
		return "SQLite 3.x database"
	}
	return ""
}

func gzipDescription(b, tail []byte) string {
	d := "gzip compressed data"
	if len(b) < 10 {
		return d
	}
	flags := b[3]
	rest := b[10:]
	if flags&4 != 0 && len(rest) >= 2 { // FEXTRA
		rest = rest[min(len(rest), 2+int(binary.LittleEndian.Uint16(rest))):]
	}
	if flags&8 != 0 { // FNAME
		if i := bytes.IndexByte(rest, 0); i >= 0 {
			d += fmt.Sprintf(", was \"%s\"", rest[:i])
		}
	}
	if mtime := binary.LittleEndian.Uint32(b[4:8]); mtime != 0 {
		d += ", last modified: " + time.Unix(int64(mtime), 0).Format("Mon Jan _2 15:04:05 2006")
	}
	if b[9] == 3 {
		d += ", from Unix"
	}
	if len(tail) == 4 {
		d += fmt.Sprintf(", original size modulo 2^32 %d", binary.LittleEndian.Uint32(tail))
	}
	return d
}

// textKind describes text: its kind (script, JSON, XML, HTML), encoding
// and line endings, or "data" for binary content.
func textKind(b []byte) string {
	if bytes.IndexByte(b, 0) >= 0 {
		return "data"
	}
	enc := "ASCII text"
	for _, ch := range b {
		if ch >= 0x80 {
			enc = "Unicode text, UTF-8 text"
			if !utf8.Valid(b) {
				enc = "ISO-8859 text"
			}
			continue
		}
		if ch < 32 && ch != '\n' && ch != '\r' && ch != '\t' && ch != '\f' && ch != '\b' && ch != 0x1b {
			return "data"
		}
	}
	kind := ""
	trimmed := bytes.TrimLeft(b, " \t\r\n")
	switch {
	case bytes.HasPrefix(b, []byte("#!")):
		kind = scriptKind(string(b[2:min(len(b), 128)]))
	case bytes.HasPrefix(trimmed, []byte("<?xml")):
		kind = "XML 1.0 document, "
	case hasPrefixFold(trimmed, "<!doctype html"), hasPrefixFold(trimmed, "<html"):
		kind = "HTML document, "
	case (bytes.HasPrefix(trimmed, []byte("{")) || bytes.HasPrefix(trimmed, []byte("["))) && json.Valid(b):
		return "JSON text data"
	}
	d := kind + enc
	if strings.HasSuffix(kind, "script, ") {
		d += " executable"
	}
	var extras []string
	longest, cur := 0, 0
	for _, ch := range b {
		if ch == '\n' {
			longest, cur = max(longest, cur), 0
			continue
		}
		cur++
	}
	longest = max(longest, cur)
	switch {
	case bytes.Contains(b, []byte("\r\n")):
		extras = append(extras, "with CRLF line terminators")
	case bytes.IndexByte(b, '\r') >= 0 && bytes.IndexByte(b, '\n') < 0:
		extras = append(extras, "with CR line terminators")
	case bytes.IndexByte(b, '\n') < 0:
		extras = append(extras, "with no line terminators")
	}
	if longest > 300 {
		extras = append(extras, fmt.Sprintf("with very long lines (%d)", longest))
	}
	if len(extras) > 0 {
		d += ", " + strings.Join(extras, ", ")
	}
	return d
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// scriptKind names the interpreter of a #! line.
func scriptKind(line string) string {
	line, _, _ = strings.Cut(line, "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return ""
	}
	prog := fields[0][strings.LastIndexByte(fields[0], '/')+1:]
	if prog == "env" && len(fields) > 1 {
		prog = fields[1]
	}
	switch {
	case prog == "sh" || prog == "dash":
		return "POSIX shell script, "
	case prog == "bash":
		return "Bourne-Again shell script, "
	case prog == "zsh":
		return "Paul Falstad's zsh script, "
	case strings.HasPrefix(prog, "python"):
		return "Python script, "
	case prog == "node" || prog == "nodejs":
		return "Node.js script, "
	case strings.HasPrefix(prog, "perl"):
		return "Perl script, "
	case strings.HasPrefix(prog, "ruby"):
		return "Ruby script, "
	}
	return "a " + strings.Join(fields, " ") + " script, "
}

// mimeOf maps a description to the MIME type file -i prints.
func mimeOf(desc string) string {
	switch {
	case desc == "directory":
		return "inode/directory; charset=binary"
	case desc == "empty":
		return "inode/x-empty; charset=binary"
	case strings.HasPrefix(desc, "JSON"):
		return "application/json; charset=us-ascii"
	case strings.HasPrefix(desc, "Zip"):
		return "application/zip; charset=binary"
	case strings.HasPrefix(desc, "gzip"):
		return "application/gzip; charset=binary"
	case strings.HasPrefix(desc, "PNG"):
		return "image/png; charset=binary"
	case strings.HasPrefix(desc, "PDF"):
		return "application/pdf; charset=binary"
	case strings.Contains(desc, "UTF-8"):
		return "text/plain; charset=utf-8"
	case strings.Contains(desc, "script"):
		return "text/x-shellscript; charset=us-ascii"
	case strings.Contains(desc, "text"):
		return "text/plain; charset=us-ascii"
	}
	return "application/octet-stream; charset=binary"
}
