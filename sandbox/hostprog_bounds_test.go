package sandbox

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
)

// gitRepo makes a git repository on the host (the sandbox may not make
// a .git in workspace-write).
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
}

func TestOneProjectsHomeNeverRunsInAnother(t *testing.T) {
	sharedtest.Tools(t, "git", "python3")
	h := hostProgs(t)
	a, _ := sandboxDir(t)
	b, _ := sandboxDir(t)
	gitRepo(t, a)
	gitRepo(t, b)
	poison := `git config --global core.fsmonitor 'echo PWNED-GIT >&2; false' && ` +
		`python3 -c "import os, site; d = site.getusersitepackages(); os.makedirs(d, exist_ok=True); open(os.path.join(d, 'usercustomize.py'), 'w').write('import sys; sys.stderr.write(\"PWNED-PY\\\\n\")')"`
	if o := runIn(t, h, Scope{Workspace: b, Mode: WorkspaceWrite, Session: "b"}, poison); o.ExitCode != 0 {
		t.Fatalf("planting in B: exit %d %s", o.ExitCode, o.Stderr)
	}
	victim := "git status >/dev/null; python3 -c pass"
	t.Run("the planted files do run in the session that planted them", func(t *testing.T) {
		o := runIn(t, h, Scope{Workspace: b, Mode: WorkspaceWrite, Session: "b"}, victim)
		if !strings.Contains(string(o.Stderr), "PWNED-GIT") || !strings.Contains(string(o.Stderr), "PWNED-PY") {
			t.Fatalf("the probe itself does not work: stderr %q", o.Stderr)
		}
	})
	for _, tt := range []struct {
		name string
		s    Scope
	}{
		{"they do not run in another workspace", Scope{Workspace: a, Mode: WorkspaceWrite, Session: "a"}},
		{"nor in another workspace under the same session id", Scope{Workspace: a, Mode: WorkspaceWrite, Session: "b"}},
		{"nor in another session of the same workspace", Scope{Workspace: b, Mode: WorkspaceWrite, Session: "b2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := runIn(t, h, tt.s, victim)
			if strings.Contains(string(o.Stderr), "PWNED") {
				t.Fatalf("B's HOME ran here: stderr %q", o.Stderr)
			}
		})
	}
}

// rootOnlyFile is a file under /etc that root can read and an
// unprivileged user cannot (or /etc/shadow when none is found).
func rootOnlyFile(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/etc/ssl/private/ssl-cert-snakeoil.key", "/etc/shadow", "/etc/gshadow"} {
		if info, err := os.Stat(p); err == nil && info.Mode().Perm()&0o004 == 0 {
			return p
		}
	}
	t.Skip("no root-only file under /etc here")
	return ""
}

func TestRootOnlyFilesUnderEtcStayUnreadable(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	secret := rootOnlyFile(t)
	if os.Geteuid() == 0 {
		if _, err := os.ReadFile(secret); err != nil {
			t.Fatalf("root cannot read %s on the host either: %v", secret, err)
		}
	}
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, "dash -c 'cat "+secret+"'")
	if len(o.Stdout) > 0 {
		t.Fatalf("%s was read in the sandbox: %q", secret, o.Stdout)
	}
	if o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, "dash -c 'head -c 5 /etc/passwd'"); string(o.Stdout) != "root:" {
		t.Fatalf("a world-readable file must stay readable: %q %q", o.Stdout, o.Stderr)
	}
}

func TestAWorkspaceSocketIsUnreachableInEveryMode(t *testing.T) {
	sharedtest.Tools(t, "python3")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	l, err := net.Listen("unix", filepath.Join(ws, ".s.PGSQL.5432"))
	must(t, err)
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SECRET-SERVICE\n"))
			c.Close()
		}
	}()
	connect := `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('.s.PGSQL.5432'); print(s.recv(20).decode().strip())"`
	if c, err := net.Dial("unix", filepath.Join(ws, ".s.PGSQL.5432")); err != nil {
		t.Fatalf("the service itself: %v", err)
	} else {
		c.Close()
	}
	for _, mode := range []Mode{ReadOnly, WorkspaceWrite} {
		t.Run(string(mode), func(t *testing.T) {
			o := runIn(t, h, Scope{Workspace: ws, Mode: mode}, connect)
			if o.ExitCode == 0 || strings.Contains(string(o.Stdout), "SECRET") {
				t.Fatalf("the socket was reached: %q %q", o.Stdout, o.Stderr)
			}
		})
	}
}

func TestAForkBombStopsAtThePidsLimit(t *testing.T) {
	sharedtest.Tools(t, "python3")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	count := `python3 -c "
import os, time
n = 0
while True:
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    n += 1
print(n)"`
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, count)
	n, err := strconv.Atoi(strings.TrimSpace(string(o.Stdout)))
	if err != nil {
		t.Fatalf("stdout %q stderr %q", o.Stdout, o.Stderr)
	}
	if n >= hostexec.DefaultPids || n < 100 {
		t.Fatalf("%d processes started, want fewer than %d (and a working fork)", n, hostexec.DefaultPids)
	}
	bomb := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, `dash -c 'b() { b | b & }; b; sleep 1; echo survived'`)
	if !strings.Contains(string(bomb.Stdout), "survived") {
		t.Fatalf("the shell fork bomb: %q %q", bomb.Stdout, bomb.Stderr)
	}
}

func TestA3GiBAllocationFails(t *testing.T) {
	sharedtest.Tools(t, "python3")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, `python3 -c "b = bytearray(64 << 20); print('small ok')"`)
	if string(o.Stdout) != "small ok\n" {
		t.Fatalf("a 64 MiB allocation: %q %q", o.Stdout, o.Stderr)
	}
	o = runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, `python3 -c "b = bytearray(3 << 30); print('allocated')"`)
	if strings.Contains(string(o.Stdout), "allocated") || !strings.Contains(string(o.Stderr), "MemoryError") {
		t.Fatalf("3 GiB were allocated: %q %q", o.Stdout, o.Stderr)
	}
}

func TestThreeConcurrentFillsShareOneBudget(t *testing.T) {
	requireBwrap(t)
	wasm := testguest.Shell(t)
	const budget = 512 << 20
	h := NewHost(Config{Guest: func() []byte { return wasm }, PoolSize: -1, WriteQuota: 256 << 20, TmpSize: 16 << 20,
		HostExec: &HostExec{Programs: []string{"dash"}, RAMBudget: budget}})
	defer h.Close(context.Background())
	ws, _ := sandboxDir(t)
	// Each fills /tmp and the workspace as far as its mounts let it and
	// says how much it held, then passes the others' reports on.
	fill := func(n string) string {
		return `dash -c 'head -c 2000000000 /dev/zero > /tmp/f` + n + ` 2>/dev/null; head -c 2000000000 /dev/zero > w` + n +
			` 2>/dev/null; echo ` + n + ` $(du -cb /tmp/f` + n + ` w` + n + ` | tail -1 | cut -f1); cat'`
	}
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "fills"}, fill("1")+" </dev/null | "+fill("2")+" | "+fill("3"))
	var held int64
	reports := 0
	for _, line := range strings.Split(strings.TrimSpace(string(o.Stdout)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		v, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatalf("report %q", line)
		}
		held += v
		reports++
	}
	if reports == 0 && !strings.Contains(string(o.Stderr), "memory budget") {
		t.Fatalf("no fill ran and none was refused: %q %q", o.Stdout, o.Stderr)
	}
	if held > budget {
		t.Fatalf("the fills held %d MiB together, over the %d MiB budget (stdout %q stderr %q)", held>>20, budget>>20, o.Stdout, o.Stderr)
	}
	if reports > 0 && held < 64<<20 {
		t.Fatalf("the fills held only %d bytes: the probe does not fill (%q)", held, o.Stdout)
	}
}

func TestAnOutwardSymlinkIsRefusedFromTheGuestAndFromAHostProgram(t *testing.T) {
	h := hostProgs(t)
	for _, tt := range []struct{ name, cmd string }{
		{"the guest", "ln -s . a; ln -s a/.. out; ln -s a/a/../.. out2; mkdir -p p/q; ln -s ../../x p/q/l; mv p/q q2"},
		{"a host program", "dash -c 'ln -s . a; ln -s a/.. out; ln -s a/a/../.. out2; mkdir -p p/q; ln -s ../../x p/q/l; mv p/q q2'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws, outside := sandboxDir(t)
			o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, tt.cmd)
			if target, err := os.Readlink(filepath.Join(ws, "a")); err != nil || target != "." {
				t.Fatalf("the inside link a did not land: %q %v (stderr %q)", target, err, o.Stderr)
			}
			for _, p := range []string{"out", "out2", "q2/l"} {
				if target, err := os.Readlink(filepath.Join(ws, p)); err == nil {
					t.Errorf("%s -> %s landed in the workspace (stderr %q)", p, target, o.Stderr)
				}
			}
			canaryIntact(t, outside)
		})
	}
}

func TestARebaseTodoExecIsRemovedBeforeTheUsersGitRunsIt(t *testing.T) {
	sharedtest.Tools(t, "git")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "t"}, {"config", "user.email", "t@example.com"}} {
		if out, err := git(args...); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	for _, n := range []string{"one", "two"} {
		must(t, os.WriteFile(filepath.Join(ws, n), []byte(n), 0o644))
		if out, err := git("add", n); err != nil {
			t.Fatal(out)
		}
		if out, err := git("commit", "-qm", n); err != nil {
			t.Fatal(out)
		}
	}
	// The model's rebase stops at a break with an exec step after it.
	editor := `f() { { printf "break\nexec touch PWNED\n"; cat "$1"; } > "$1.new" && mv "$1.new" "$1"; }; f`
	o := runIn(t, h, Scope{Workspace: ws, Mode: GitWrite}, "GIT_SEQUENCE_EDITOR='"+editor+"' git rebase -q -i HEAD~1")
	if !strings.Contains(o.Note, "removed 1 exec step(s) from .git/rebase-merge/git-rebase-todo") || !strings.Contains(o.Note, "touch PWNED") {
		t.Fatalf("note %q (stdout %q stderr %q)", o.Note, o.Stdout, o.Stderr)
	}
	// The user goes on with the rebase on the host.
	if out, err := git("rebase", "--continue"); err != nil {
		t.Fatalf("git rebase --continue: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "PWNED")); err == nil {
		t.Fatal("the exec step ran on the host")
	}
	if out, _ := git("log", "--format=%s"); out != "two\none\n" {
		t.Fatalf("the rebase did not finish as planned: %q", out)
	}
}
