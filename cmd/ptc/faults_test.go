package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// noCrash fails when a command's stderr shows a Go panic or fatal error.
func noCrash(t *testing.T, what, stderr string) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine ", "fatal error", "SIGBUS", "SIGSEGV"} {
		if strings.Contains(stderr, bad) {
			t.Fatalf("%s crashed:\n%s", what, stderr)
		}
	}
}

// storeGlob returns the first file of one session's store matching glob.
func storeGlob(t *testing.T, home, id, glob string) string {
	return sessiontest.StoreFile(t, filepath.Join(home, "sessions", id), glob)
}

func TestDamagedStoresThroughTheCLI(t *testing.T) {
	hello := "script:" + examplePath(t, "hello.json")
	damages := []struct {
		name, want string
		damage     func(t *testing.T, home, id string)
	}{
		{"a truncated table", "fails its check", func(t *testing.T, home, id string) {
			p := storeGlob(t, home, id, "*.sst")
			st, _ := os.Stat(p)
			if err := os.Truncate(p, st.Size()/3); err != nil {
				t.Fatal(err)
			}
		}},
		{"a deleted MANIFEST", "MANIFEST file is missing", func(t *testing.T, home, id string) {
			if err := os.Remove(storeGlob(t, home, id, "MANIFEST")); err != nil {
				t.Fatal(err)
			}
		}},
		{"edited table bytes", "fails its check", func(t *testing.T, home, id string) {
			p := storeGlob(t, home, id, "*.sst")
			b, _ := os.ReadFile(p)
			for i := len(b) / 3; i < len(b)/3+16; i++ {
				b[i] ^= 0xff
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, d := range damages {
		t.Run(d.name+" is named, nothing crashes and nothing is changed", func(t *testing.T) {
			c := newCLI(t)
			id := parseFinal(t, c.ok("run", "--model", hello, "--output", "json", "hello")).SessionID
			d.damage(t, c.home, id)
			dir := filepath.Join(c.home, "sessions", id)
			before := sessiontest.TreeHash(t, dir, "owner")
			for _, args := range [][]string{
				{"run", "--resume", id, "hello again"},
				{"session", "show", id},
				{"session", "export", id},
			} {
				_, errs, code := c.run(args...)
				noCrash(t, strings.Join(args, " "), errs)
				if code == 0 || !strings.Contains(errs, "corrupt") || !strings.Contains(errs, d.want) || !strings.Contains(errs, id) {
					t.Fatalf("ptc %v: exit %d, stderr %q; want it to name the damage (%q) and the session", args, code, errs, d.want)
				}
			}
			out, errs, code := c.run("sessions")
			noCrash(t, "sessions", errs)
			if code != 0 || !strings.Contains(out, id) {
				t.Fatalf("ptc sessions: exit %d\n%s%s", code, out, errs)
			}
			c.ok("run", "--model", hello, "other sessions still work")
			if sessiontest.TreeHash(t, dir, "owner") != before {
				t.Fatal("the damaged session's files were changed")
			}
		})
	}
}

func TestEnvironmentFaultsThroughTheCLI(t *testing.T) {
	hello := "script:" + examplePath(t, "hello.json")
	t.Run("a read-only home says so and still lists and shows", func(t *testing.T) {
		c := newCLI(t)
		c.home = sessiontest.MountTmpfs(t, "32m")
		id := parseFinal(t, c.ok("run", "--model", hello, "--output", "json", "hello")).SessionID
		if err := syscall.Mount("tmpfs", c.home, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Fatal(err)
		}
		_, errs, code := c.run("run", "--model", hello, "hello")
		noCrash(t, "run", errs)
		if code == 0 || !strings.Contains(errs, "read-only") || strings.Contains(errs, "corrupt") {
			t.Fatalf("run on a read-only home: exit %d, %q", code, errs)
		}
		if out := c.ok("sessions"); !strings.Contains(out, id) {
			t.Fatalf("sessions: %s", out)
		}
		c.ok("session", "show", id)
	})
	t.Run("a home of another user is refused, reading it is not", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give the home away")
		}
		c := newCLI(t)
		id := parseFinal(t, c.ok("run", "--model", hello, "--output", "json", "hello")).SessionID
		if err := os.Chown(c.home, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		before := sessiontest.TreeHash(t, filepath.Join(c.home, "sessions"), "owner")
		_, errs, code := c.run("run", "--resume", id, "hello")
		noCrash(t, "run", errs)
		if code == 0 || !strings.Contains(errs, "belongs to another user (uid 65534") {
			t.Fatalf("resume in another user's home: exit %d, %q", code, errs)
		}
		c.ok("session", "show", id)
		if sessiontest.TreeHash(t, filepath.Join(c.home, "sessions"), "owner") != before {
			t.Fatal("files changed in another user's home")
		}
	})
	t.Run("another user running ptc on this home gets a permission error", func(t *testing.T) {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil || os.Geteuid() != 0 {
			t.Skip("needs root and setpriv")
		}
		c := newCLI(t)
		id := parseFinal(t, c.ok("run", "--model", hello, "--output", "json", "hello")).SessionID
		if err := os.Chmod(c.home, 0o711); err != nil { // others may reach the binary's files, not the sessions
			t.Fatal(err)
		}
		before := sessiontest.TreeHash(t, filepath.Join(c.home, "sessions"), "owner")
		cmd := c.command("run", "--resume", id, "--model", hello, "hello")
		cmd.Args = append([]string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", ptcBin}, cmd.Args[1:]...)
		cmd.Path = setpriv
		cmd.Dir = "/"
		out, _ := cmd.CombinedOutput()
		noCrash(t, "run as nobody", string(out))
		if !strings.Contains(string(out), "permission denied") || strings.Contains(string(out), "corrupt") {
			t.Fatalf("run as another user: %s", out)
		}
		if sessiontest.TreeHash(t, filepath.Join(c.home, "sessions"), "owner") != before {
			t.Fatal("files changed")
		}
	})
	t.Run("a full disk fails the run cleanly and the session resumes once there is room", func(t *testing.T) {
		c := newCLI(t, "PTC_TEST_TOOLS=1")
		c.home = sessiontest.MountTmpfs(t, "12m")
		// Fill the disk until a few MB are left: less than the reserve.
		pad := filepath.Join(c.home, "pad")
		start := time.Now()
		id := parseFinal(t, c.ok("run", "--model", hello, "--output", "json", "hello")).SessionID
		t.Logf("first run in %v", time.Since(start))
		var st syscall.Statfs_t
		if err := syscall.Statfs(c.home, &st); err != nil {
			t.Fatal(err)
		}
		free := int64(st.Bavail) * int64(st.Bsize)
		if err := os.WriteFile(pad, make([]byte, free-3<<20), 0o600); err != nil {
			t.Fatal(err)
		}
		before := sessiontest.TreeHash(t, filepath.Join(c.home, "sessions", id), "owner")
		start = time.Now()
		_, errs, code := c.run("run", "--resume", id, "hello again")
		t.Logf("refused in %v", time.Since(start))
		noCrash(t, "run on a full disk", errs)
		if code == 0 || !strings.Contains(errs, "no space left") {
			t.Fatalf("run on a full disk: exit %d, %q", code, errs)
		}
		if sessiontest.TreeHash(t, filepath.Join(c.home, "sessions", id), "owner") != before {
			t.Fatal("a refused resume changed the session's files")
		}
		if err := os.Remove(pad); err != nil {
			t.Fatal(err)
		}
		start = time.Now()
		f := parseFinal(t, c.ok("run", "--resume", id, "--output", "json", "hello again"))
		t.Logf("resumed in %v", time.Since(start))
		if f.Turn != 2 || f.Reason != "completed" {
			t.Fatalf("after freeing space: %+v", f)
		}
	})
}
