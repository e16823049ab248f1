package shell

import (
	"bufio"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

var hashCommands = map[string]builtinFunc{
	"md5sum":    hashSum(hashAlgo{md5.New, proto.DigestMD5}),
	"sha1sum":   hashSum(hashAlgo{sha1.New, proto.DigestSHA1}),
	"sha224sum": hashSum(hashAlgo{sha256.New224, proto.DigestSHA224}),
	"sha256sum": hashSum(hashAlgo{sha256.New, proto.DigestSHA256}),
	"sha384sum": hashSum(hashAlgo{sha512.New384, proto.DigestSHA384}),
	"sha512sum": hashSum(hashAlgo{sha512.New, proto.DigestSHA512}),
}

// hashAlgo is a checksum command's hash and its number in the host's
// digest function (proto.DigestFunc).
type hashAlgo struct {
	newHash func() hash.Hash
	id      uint32
}

// hashSum returns a coreutils-style checksum command: it prints
// "digest  name" per input, or with -c checks such lines.
func hashSum(algo hashAlgo) builtinFunc {
	return func(c *cmd, args []string) int {
		o, err := flagSpec{short: "bctwz", permute: true, long: map[string]string{
			"binary": "b", "check": "c", "text": "t", "warn": "w", "status": "status", "quiet": "quiet", "strict": "strict", "tag": "tag",
		}}.parse(args)
		if err != nil {
			return c.usage(err)
		}
		if o.has("c") {
			return c.checkSums(o, algo)
		}
		d := newDigester(algo)
		return c.forEachInput(o.args, func(name string, r io.Reader) error {
			sum, err := d.sum(r)
			if err != nil {
				return err
			}
			if o.has("tag") {
				_, err = fmt.Fprintf(c.stdout, "%s (%s) = %s\n", strings.ToUpper(strings.TrimSuffix(c.name, "sum")), name, sum)
				return err
			}
			_, err = fmt.Fprintf(c.stdout, "%s  %s\n", sum, name)
			return err
		})
	}
}

// digester hashes one command's inputs with buffers made once, so a
// checksum over many small files does not allocate a chunk per file.
type digester struct {
	algo       hashAlgo
	buf, state []byte
}

func newDigester(a hashAlgo) *digester {
	return &digester{algo: a, buf: make([]byte, proto.DigestChunk), state: make([]byte, proto.DigestState)}
}

// sum returns the hex digest of r. Whole chunks are hashed by the host
// (proto.DigestFunc: native code, tens of times faster than Go's hashes
// compiled to wasm); a chunk the host refuses is hashed here, so the
// result never depends on the host answering.
func (d *digester) sum(r io.Reader) (string, error) {
	h := d.algo.newHash()
	for {
		n, err := io.ReadFull(r, d.buf)
		if n > 0 {
			hashChunk(h, d.algo.id, d.buf[:n], d.state)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		if err != nil {
			return "", err
		}
	}
}

// hashChunk adds data to h through the host when it can, else in place.
func hashChunk(h hash.Hash, id uint32, data, scratch []byte) {
	cur, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err == nil {
		if n := hostStep(id, cur, data, scratch); n > 0 {
			if h.(encoding.BinaryUnmarshaler).UnmarshalBinary(scratch[:n]) == nil {
				return
			}
			_ = h.(encoding.BinaryUnmarshaler).UnmarshalBinary(cur) // h's own encoding: it decodes
		}
	}
	h.Write(data)
}

// checkSums reads "digest  name" lines from the inputs and checks each
// named file, as sha256sum -c does.
func (c *cmd) checkSums(o *opts, algo hashAlgo) int {
	size := algo.newHash().Size() * 2
	d := newDigester(algo)
	status, bad, unreadable := 0, 0, 0
	st := c.forEachInput(o.args, func(list string, r io.Reader) error {
		lines := 0
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			line := sc.Text()
			sum, name, ok := strings.Cut(line, " ")
			if !ok || len(sum) != size || len(name) < 2 || (name[0] != ' ' && name[0] != '*') {
				continue
			}
			lines++
			name = name[1:]
			f, err := c.open(name)
			if err != nil {
				c.flushOut()
				fmt.Fprintf(c.stderr, "%s: %s: %s\n", c.name, name, errText(err))
				if !o.has("status") {
					fmt.Fprintf(c.stdout, "%s: FAILED open or read\n", name)
				}
				unreadable++
				continue
			}
			got, err := d.sum(f)
			f.Close()
			switch {
			case err == nil && strings.EqualFold(got, sum):
				if !o.has("status") && !o.has("quiet") {
					fmt.Fprintf(c.stdout, "%s: OK\n", name)
				}
			default:
				bad++
				if !o.has("status") {
					fmt.Fprintf(c.stdout, "%s: FAILED\n", name)
				}
			}
		}
		if lines == 0 {
			shown := list
			if list == "-" {
				shown = "'standard input'"
			}
			c.fail("%s: no properly formatted checksum lines found", shown)
			status = 1
		}
		return sc.Err()
	})
	if !o.has("status") {
		if unreadable > 0 {
			c.fail("WARNING: %d listed file%s could not be read", unreadable, plural(unreadable))
		}
		if bad > 0 {
			c.fail("WARNING: %d computed checksum%s did NOT match", bad, plural(bad))
		}
	}
	if bad > 0 || unreadable > 0 || st != 0 {
		return 1
	}
	return status
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
