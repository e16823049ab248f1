package hostexec

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// rootOutsideTmp is a sandbox root outside /tmp, where the program's own
// /tmp rules do not reach (as in real use: ~/.cache/ptc/sandbox).
func rootOutsideTmp(t *testing.T) string {
	t.Helper()
	base, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	if err := os.MkdirAll(base, 0o700); err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp(base, "ptc-hostexec-test-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestDirsAreOwnedByOneWorkspaceAndHomesByOneSession(t *testing.T) {
	r := NewRunner(Config{Root: t.TempDir()})
	a1, err := r.DirsFor("/w/a", "s1")
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := r.DirsFor("/w/a", "s2")
	b1, _ := r.DirsFor("/w/b", "s1")
	p1, _ := r.DirsFor("/w/a", "")
	p2, _ := r.DirsFor("/w/a", "")
	if a1.Cache != a2.Cache || a1.Home == a2.Home {
		t.Errorf("sessions of one workspace share the cache, not HOME: %+v %+v", a1, a2)
	}
	if a1.Cache == b1.Cache || a1.Home == b1.Home || strings.HasPrefix(b1.Home, filepath.Dir(filepath.Dir(a1.Home))) {
		t.Errorf("two workspaces share a directory: %+v %+v", a1, b1)
	}
	if p1 != p2 || p1.Home == a1.Home {
		t.Errorf("runs without a session share one HOME per process: %+v %+v", p1, p2)
	}
	srv, _ := r.ServerHome("/w/a", "db")
	if srv == a1.Home || within(srv, a1.Home) || within(srv, a1.Cache) {
		t.Errorf("a server's HOME %s is inside the programs' directories", srv)
	}
	if _, err := r.DirsFor("relative", "s"); err == nil {
		t.Error("a relative workspace was taken")
	}
}

func TestNoSocketCanBeMadeInTheSharedCache(t *testing.T) {
	sharedtest.Tools(t, "python3")
	r := NewRunner(Config{Root: rootOutsideTmp(t)})
	if err := r.Available(); err != nil {
		sharedtest.Unavailable(t, "bwrap cannot run here: %v", err)
	}
	if ok, _ := restrictSocketsAvailable(); !ok {
		t.Skip("Landlock is not available here")
	}
	ws := t.TempDir()
	dirs, err := r.DirsFor(ws, "s")
	if err != nil {
		t.Fatal(err)
	}
	bind := func(dir string) string {
		return `python3 -c "import socket, sys; s = socket.socket(socket.AF_UNIX)
try:
    s.bind('` + dir + `/s.sock'); print('bound')
except OSError as e:
    print('refused', e.errno)"`
	}
	for _, tt := range []struct{ dir, want string }{
		{dirs.Cache, "refused"}, {dirs.Home, "bound"}, {"/tmp", "bound"}, {ws, "bound"},
	} {
		var out, errb strings.Builder
		_, err := r.Run(context.Background(), Spec{Path: "/bin/sh", Args: []string{"sh", "-c", bind(tt.dir)}, Env: []string{"PATH=/usr/bin:/bin"},
			Dir: ws, Workspace: ws, Writable: true, LayerSize: 16 << 20, Dirs: dirs, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if err != nil || !strings.HasPrefix(out.String(), tt.want) {
			t.Errorf("a socket in %s: %q %q %v, want %s", tt.dir, out.String(), errb.String(), err, tt.want)
		}
	}
}

// restrictSocketsAvailable reports whether this kernel has Landlock,
// without confining anything.
func restrictSocketsAvailable() (bool, error) { return landlockABI() >= 1, nil }

func TestThePidsLimitIsHeldByTheKernel(t *testing.T) {
	r := runner(t)
	ws := t.TempDir()
	got := runSh(t, r, ws, "true", false)
	want := "RLIMIT_NPROC"
	if kernelAtLeast(6, 14) {
		want = "pid_max"
	}
	if got.res.PidsBy != want {
		t.Fatalf("pids held by %q, want %q", got.res.PidsBy, want)
	}
	if os.Geteuid() == 0 && got.res.PidsBy == "RLIMIT_NPROC" {
		t.Fatal("as root, RLIMIT_NPROC holds nothing")
	}
}

func TestTheSandboxRootAndDevCannotBeFilled(t *testing.T) {
	r := runner(t)
	ws := t.TempDir()
	got := runSh(t, r, ws, "echo x > /newfile; echo x > /dev/newfile; head -c 100000000 /dev/zero > /dev/shm/big; ls -l /dev/shm/big | awk '{print $5}'", true)
	if !strings.Contains(got.stderr, "Read-only file system") {
		t.Errorf("the root or /dev took a file: %q", got.stderr)
	}
	if got.stdout != "67108864\n" {
		t.Errorf("/dev/shm held %q bytes, want 64 MiB", got.stdout)
	}
}

func TestMasksCoverWhatAnUnprivilegedUserCannotRead(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "pub/sub"), 0o755))
	must(os.Mkdir(filepath.Join(root, "private"), 0o700))
	must(os.WriteFile(filepath.Join(root, "private/key"), []byte("k"), 0o644))
	must(os.WriteFile(filepath.Join(root, "pub/secret"), []byte("s"), 0o640))
	must(os.WriteFile(filepath.Join(root, "pub/sub/open"), []byte("o"), 0o644))
	must(os.Symlink("/etc/shadow", filepath.Join(root, "pub/link")))
	cache := t.TempDir()
	now := time.Now()
	var names []string
	for _, m := range computeMasks([]string{root}, cache, now) {
		names = append(names, strings.TrimPrefix(m.Path, root+"/"))
	}
	if want := []string{"private", "pub/secret"}; !slices.Equal(names, want) {
		t.Fatalf("masks %q, want %q", names, want)
	}
	t.Run("the list is cached while the stamp and the TTL hold", func(t *testing.T) {
		must(os.WriteFile(filepath.Join(root, "pub/sub/later"), []byte("l"), 0o600))
		if got := computeMasks([]string{root}, cache, now.Add(time.Minute)); len(got) != 2 {
			t.Fatalf("the cache was not used: %v", got)
		}
		if got := computeMasks([]string{root}, cache, now.Add(maskTTL+time.Minute)); len(got) != 3 {
			t.Fatalf("an expired cache was used: %v", got)
		}
	})
	t.Run("a change at the top invalidates it", func(t *testing.T) {
		must(os.WriteFile(filepath.Join(root, "new"), []byte("n"), 0o600))
		if got := computeMasks([]string{root}, cache, now.Add(maskTTL+2*time.Minute)); len(got) != 4 {
			t.Fatalf("a stale cache was used: %v", got)
		}
	})
}

func TestNoSysctlCanBeWrittenFromTheSandbox(t *testing.T) {
	r := runner(t)
	ws := t.TempDir()
	// Writing the value already there changes nothing, whoever succeeds.
	got := runSh(t, r, ws, `v=$(cat /proc/sys/vm/overcommit_memory) && echo "$v" > /proc/sys/vm/overcommit_memory && echo WROTE; `+
		`test -w /proc/sys/kernel/core_pattern && echo WRITABLE; cat /proc/keys | head -c 1 | wc -c`, true)
	if strings.Contains(got.stdout, "WROTE") || strings.Contains(got.stdout, "WRITABLE") {
		t.Fatalf("a sysctl is writable in the sandbox: %q %q", got.stdout, got.stderr)
	}
	if !strings.HasSuffix(got.stdout, "0\n") {
		t.Fatalf("/proc/keys is readable: %q", got.stdout)
	}
}
