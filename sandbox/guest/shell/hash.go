package shell

import (
	"bufio"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"
)

var hashCommands = map[string]builtinFunc{
	"md5sum":    hashSum(md5.New),
	"sha1sum":   hashSum(sha1.New),
	"sha224sum": hashSum(sha256.New224),
	"sha256sum": hashSum(sha256.New),
	"sha384sum": hashSum(sha512.New384),
	"sha512sum": hashSum(sha512.New),
}

// hashSum returns a coreutils-style checksum command: it prints
// "digest  name" per input, or with -c checks such lines.
func hashSum(newHash func() hash.Hash) builtinFunc {
	return func(c *cmd, args []string) int {
		o, err := flagSpec{short: "bctwz", permute: true, long: map[string]string{
			"binary": "b", "check": "c", "text": "t", "warn": "w", "status": "status", "quiet": "quiet", "strict": "strict", "tag": "tag",
		}}.parse(args)
		if err != nil {
			return c.usage(err)
		}
		if o.has("c") {
			return c.checkSums(o, newHash)
		}
		return c.forEachInput(o.args, func(name string, r io.Reader) error {
			sum, err := digest(newHash, r)
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

func digest(newHash func() hash.Hash, r io.Reader) (string, error) {
	h := newHash()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkSums reads "digest  name" lines from the inputs and checks each
// named file, as sha256sum -c does.
func (c *cmd) checkSums(o *opts, newHash func() hash.Hash) int {
	size := newHash().Size() * 2
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
			got, err := digest(newHash, f)
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
