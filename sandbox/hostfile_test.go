package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// fileFixture makes a workspace with the files a file operation can meet
// (text, an executable, binary, a directory, a FIFO, symlinks that stay
// inside and ones that leave, protected paths) and an outside canary.
func fileFixture(t *testing.T) (ws, outside string) {
	t.Helper()
	ws, outside = sandboxDir(t)
	files := map[string]string{"a.txt": "one\ntwo\r\nthree two\n", "bin.dat": "x\x00y", ".git/config": "[core]\n", "dir/b.txt": "b\n", "exec.sh": "#!/bin/sh\n"}
	for name, body := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(ws, "exec.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"link-in": "a.txt", "link-out": "../outside/secret.txt", "linkdir-out": "../outside", "abs-out": filepath.Join(outside, "new.txt")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, outside
}

// treeOf records every entry under dir: its mode and its content or
// link target (base written BASE).
func treeOf(t *testing.T, dir, base string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		entry := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			entry += " -> " + strings.ReplaceAll(target, base, "BASE")
		case info.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			entry += " " + string(b)
		}
		tree[rel] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// viaGuest runs a file operation as the guest did before File existed.
func viaGuest(t *testing.T, h *Host, scope Scope, op string, req proto.FileRequest) proto.FileResponse {
	t.Helper()
	o, err := h.RunIn(context.Background(), scope, proto.Request{Op: op, File: &req})
	if err != nil {
		t.Fatal(err)
	}
	var resp proto.FileResponse
	if err := json.Unmarshal(o.Stdout, &resp); err != nil {
		t.Fatalf("%s: %v %q %q", op, err, o.Stdout, o.Stderr)
	}
	return resp
}

// comparable drops what two runs on two fixtures cannot share: the paths'
// base directory and the modification time.
func comparable(r proto.FileResponse, base string) string {
	if r.Stat != nil {
		st := *r.Stat
		st.ModTime = 0
		r.Stat = &st
	}
	b, _ := json.Marshal(r)
	return strings.ReplaceAll(string(b), base, "BASE")
}

// hostAnswersBetter are the reads whose host answer is more precise than
// the guest's, by the error code the host gives: a FIFO is "not a regular
// file" (the guest: permission denied), a path outside every mount is
// "outside the sandbox" (the guest: an I/O error, EBADF).
var hostAnswersBetter = map[string]string{"fifo": proto.ErrNotRegular, "/etc/hostname": proto.ErrNotFound}

// File answers every operation as the guest does — the same response and
// the same workspace afterwards — over the same confinement: symlinks
// that leave the workspace, protected paths, read-only mode, a FIFO, a
// directory, a binary file, modes kept on rewrite, stale expectations.
func TestFileAnswersAsTheGuestOverTheSameConfinement(t *testing.T) {
	h := shellGuest(t)
	type fileCase struct {
		mode Mode
		op   string
		req  proto.FileRequest
	}
	var cases []fileCase
	for _, p := range []string{"a.txt", "bin.dat", "dir", "fifo", "missing", "link-in", "link-out", "linkdir-out/secret.txt", "abs-out", "/etc/hostname", "/tmp/none"} {
		cases = append(cases, fileCase{WorkspaceWrite, proto.OpRead, proto.FileRequest{Path: p}})
	}
	cases = append(cases,
		fileCase{ReadOnly, proto.OpRead, proto.FileRequest{Path: "a.txt", Offset: 2, Limit: 1}},
		fileCase{ReadOnly, proto.OpRead, proto.FileRequest{Path: "a.txt", Offset: 9}},
		fileCase{ReadOnly, proto.OpRead, proto.FileRequest{Path: "a.txt", MaxBytes: 5}},
		fileCase{ReadOnly, proto.OpStat, proto.FileRequest{Path: "a.txt"}},
		fileCase{ReadOnly, proto.OpStat, proto.FileRequest{Path: "dir"}},
		fileCase{ReadOnly, proto.OpWrite, proto.FileRequest{Path: "a.txt", Content: "x"}},
		fileCase{ReadOnly, proto.OpEdit, proto.FileRequest{Path: "a.txt", OldString: "one", NewString: "1"}},
	)
	for _, p := range []string{"new/sub/x.txt", "exec.sh", "a.txt", "link-in", "link-out", "linkdir-out/new.txt", "abs-out", ".git/config", ".git/hooks/pre-commit", ".ptc/commands/x.md", "dir", "fifo", "bin.dat/x"} {
		for _, mode := range []Mode{WorkspaceWrite, GitWrite} {
			cases = append(cases, fileCase{mode, proto.OpWrite, proto.FileRequest{Path: p, Content: "written\n"}})
		}
	}
	cases = append(cases,
		fileCase{WorkspaceWrite, proto.OpWrite, proto.FileRequest{Path: "a.txt", Content: "x", ExpectAbsent: true}},
		fileCase{WorkspaceWrite, proto.OpWrite, proto.FileRequest{Path: "a.txt", Content: "x", ExpectSHA256: strings.Repeat("0", 64)}},
		fileCase{WorkspaceWrite, proto.OpWrite, proto.FileRequest{Path: "gone.txt", Content: "x", ExpectSHA256: strings.Repeat("0", 64)}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "a.txt", OldString: "one", NewString: "ONE"}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "a.txt", OldString: "two", NewString: "2"}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "a.txt", OldString: "two", NewString: "2", ReplaceAll: true}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "a.txt", OldString: "absent", NewString: "2"}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "a.txt", OldString: "", NewString: "2"}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "link-out", OldString: "CANARY", NewString: "gotcha"}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: ".git/config", OldString: "core", NewString: "x"}},
		fileCase{WorkspaceWrite, proto.OpEdit, proto.FileRequest{Path: "exec.sh", OldString: "sh", NewString: "bash"}},
	)
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d %s %s %s", i, c.mode, c.op, c.req.Path), func(t *testing.T) {
			gws, gout := fileFixture(t)
			hws, hout := fileFixture(t)
			greq, hreq := c.req, c.req
			if !filepath.IsAbs(c.req.Path) {
				greq.Path, hreq.Path = filepath.Join(gws, c.req.Path), filepath.Join(hws, c.req.Path)
			}
			want := viaGuest(t, h, Scope{Workspace: gws, Mode: c.mode}, c.op, greq)
			got, _, err := h.File(context.Background(), Scope{Workspace: hws, Mode: c.mode}, c.op, hreq)
			if err != nil {
				t.Fatal(err)
			}
			g, w := comparable(got, filepath.Dir(hws)), comparable(want, filepath.Dir(gws))
			if better, ok := hostAnswersBetter[c.req.Path]; ok && c.op == proto.OpRead {
				if got.Error == nil || got.Error.Code != better {
					t.Errorf("host answered %s, want the code %s (the guest: %s)", g, better, w)
				}
			} else if g != w && !(got.Error != nil && want.Error != nil && got.Error.Code == proto.ErrIO && want.Error.Code == proto.ErrIO) {
				t.Errorf("host answered\n  %s\nthe guest\n  %s", g, w)
			}
			gt, wt := treeOf(t, hws, filepath.Dir(hws)), treeOf(t, gws, filepath.Dir(gws))
			if c.req.Path == "new/sub/x.txt" && want.Error == nil {
				// New files and directories get the mode fileops asks for (0644,
				// 0755, less the umask); the guest's WASI drops it (0600, 0700).
				for _, p := range []string{"new", "new/sub", "new/sub/x.txt"} {
					gt[p], wt[p] = strings.SplitN(gt[p], " ", 2)[0], strings.SplitN(wt[p], " ", 2)[0]
					if gt[p] != map[string]string{"new": "drwxr-xr-x", "new/sub": "drwxr-xr-x", "new/sub/x.txt": "-rw-r--r--"}[p] || !strings.HasPrefix(wt[p], gt[p][:1]) {
						t.Errorf("%s: host made %s, the guest %s", p, gt[p], wt[p])
					}
					delete(gt, p)
					delete(wt, p)
				}
			}
			if !reflect.DeepEqual(gt, wt) {
				t.Errorf("the workspace afterwards: host\n  %v\nguest\n  %v", gt, wt)
			}
			canaryIntact(t, gout)
			canaryIntact(t, hout)
		})
	}
}

// A write past the session's quota is refused with the quota's note.
func TestFileWritesCountAgainstTheSessionsQuota(t *testing.T) {
	h := NewHost(Config{WriteQuota: 1 << 10})
	defer h.Close(context.Background())
	ws := t.TempDir()
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "q"}
	resp, res, err := h.File(context.Background(), scope, proto.OpWrite, proto.FileRequest{Path: filepath.Join(ws, "big"), Content: strings.Repeat("x", 4<<10)})
	if err != nil || resp.Error == nil || !res.QuotaHit || !strings.Contains(res.Note, "quota") {
		t.Fatalf("%v %+v %+v", err, resp, res)
	}
	if h.Started() {
		t.Error("a file operation loaded the guest")
	}
}

// BenchmarkFileRead times a read of a small file three ways in one run:
// File on the host, the same operation as a guest call (what read did
// before), and a forked cat (what a shell pays); and an edit of it by
// File (the file changes back and forth) against os.WriteFile rewriting a
// file of the same size (the filesystem's own cost of replacing content).
func BenchmarkFileRead(b *testing.B) {
	h := shellGuest(b)
	ws := b.TempDir()
	p := filepath.Join(ws, "small.go")
	if err := os.WriteFile(p, []byte(strings.Repeat("package main // a line\n", 40)), 0o644); err != nil {
		b.Fatal(err)
	}
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite}
	req := proto.FileRequest{Path: p}
	content, _ := os.ReadFile(p)
	var host, guest, cat, edit, native time.Duration
	for i := 0; b.Loop(); i++ {
		old, repl := "main", "mainx"
		if i%2 == 1 {
			old, repl = repl, old
		}
		start := time.Now()
		if r, _, err := h.File(context.Background(), scope, proto.OpEdit, proto.FileRequest{Path: p, OldString: " " + old + " ", NewString: " " + repl + " ", ReplaceAll: true}); err != nil || r.Error != nil {
			b.Fatal(err, r.Error)
		}
		edit += time.Since(start)
		start = time.Now()
		if err := os.WriteFile(p+".native", content, 0o644); err != nil {
			b.Fatal(err)
		}
		native += time.Since(start)
		start = time.Now()
		if r, _, err := h.File(context.Background(), scope, proto.OpRead, req); err != nil || r.Error != nil {
			b.Fatal(err, r.Error)
		}
		host += time.Since(start)
		start = time.Now()
		if o, err := h.RunIn(context.Background(), scope, proto.Request{Op: proto.OpRead, File: &req}); err != nil || o.ExitCode != 0 {
			b.Fatal(err, o)
		}
		guest += time.Since(start)
		start = time.Now()
		if err := exec.Command("cat", p).Run(); err != nil {
			b.Fatal(err)
		}
		cat += time.Since(start)
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(us(host), "host-µs/read")
	b.ReportMetric(us(guest), "guest-µs/read")
	b.ReportMetric(us(cat), "cat-fork-µs")
	b.ReportMetric(us(edit), "host-µs/edit")
	b.ReportMetric(us(native), "os.WriteFile-µs")
	b.ReportMetric(us(cat)/us(host), "x-faster-than-cat")
}
