package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

var (
	hostProgOnce sync.Once
	hostProgHost *Host
)

// requireBwrap skips the test when bwrap cannot run here, and fails it
// under PTC_REQUIRE_TOOLS=1 (CI installs bubblewrap).
func requireBwrap(t testing.TB) {
	t.Helper()
	if err := hostexec.NewRunner(hostexec.Config{}).Available(); err != nil {
		sharedtest.Unavailable(t, "host programs unavailable (bubblewrap): %v", err)
	}
}

// hostProgs returns a process-wide Host with host programs on, running
// the shell guest built from the tree.
func hostProgs(t testing.TB) *Host {
	t.Helper()
	requireBwrap(t)
	wasm := testguest.Shell(t)
	hostProgOnce.Do(func() {
		// dash: a shell that is surely no guest builtin (sh may be one).
		programs := append(append([]string(nil), hostexec.DefaultPrograms...), "dash")
		hostProgHost = NewHost(Config{Guest: func() []byte { return wasm }, HostExec: &HostExec{Programs: programs}, WriteQuota: 64 << 20, TmpSize: 16 << 20})
		hostProgHost.Warm()
	})
	// The first compile of a guest not in the cache takes minutes under
	// -race: wait for it here, not inside a command's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if err := hostProgHost.Ready(ctx); err != nil {
		t.Fatalf("compiling the guest: %v", err)
	}
	return hostProgHost
}

var (
	toolchainOnce sync.Once
	toolchainH    *Host
)

// toolchainHost is a process-wide Host with host programs on and the
// default /tmp size, for real builds.
func toolchainHost(t testing.TB) *Host {
	t.Helper()
	requireBwrap(t)
	wasm := testguest.Shell(t)
	toolchainOnce.Do(func() {
		toolchainH = NewHost(Config{Guest: func() []byte { return wasm }, HostExec: &HostExec{}})
		toolchainH.Warm()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if err := toolchainH.Ready(ctx); err != nil {
		t.Fatalf("compiling the guest: %v", err)
	}
	return toolchainH
}

func runIn(t *testing.T, h *Host, scope Scope, cmd string) Outcome {
	t.Helper()
	return runInFor(t, h, scope, cmd, 2*time.Minute)
}

// runInFor is runIn with a deadline of d for the command.
func runInFor(t *testing.T, h *Host, scope Scope, cmd string, d time.Duration) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	o, err := h.RunIn(ctx, scope, proto.Request{Op: proto.OpShell, Command: cmd})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return o
}

func TestHostProgramsJoinTheGuestPipeline(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	tests := []struct{ name, cmd, stdout string }{
		{"a host program writes straight to the output", "dash -c 'echo from-host'", "from-host\n"},
		{"it runs under bubblewrap", "dash -c 'cat /proc/sys/kernel/hostname'", "ptc-sandbox\n"},
		{"its output feeds a guest builtin", "dash -c 'echo one; echo two' | grep tw | tr a-z A-Z", "TWO\n"},
		{"a guest builtin feeds it", "printf 'a\\nb\\n' | dash -c 'wc -l' | tr -d ' '", "2\n"},
		{"stderr joins stdout with 2>&1", "dash -c 'echo err >&2' 2>&1 | sed s/err/ERR/", "ERR\n"},
		{"its exit status is the command's", "dash -c 'exit 7'; echo $?", "7\n"},
		{"a loop's input is not eaten", "printf 'x\\ny\\n' | while read f; do dash -c 'echo got'; echo \"$f\"; done", "got\nx\ngot\ny\n"},
		{"a here-document is its stdin", "dash <<'EOF'\necho heredoc\nEOF", "heredoc\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, tt.cmd)
			if string(o.Stdout) != tt.stdout || o.ExitCode != 0 {
				t.Fatalf("stdout %q (want %q) exit %d stderr %q", o.Stdout, tt.stdout, o.ExitCode, o.Stderr)
			}
		})
	}
}

func TestAProgramThePresetDoesNotAllowStays127(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, "true-but-not-allowed")
	if o.ExitCode != 127 || !strings.Contains(string(o.Stderr), "not among the host programs") {
		t.Fatalf("exit %d stderr %q", o.ExitCode, o.Stderr)
	}
}

// project lays out a small Go module, an npm package and a git repository
// holding both, committed, in ws.
func project(t *testing.T, ws string) {
	t.Helper()
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.21\n",
		"add.go":        "package m\n\nfunc Add(a, b int) int { return a + b }\n",
		"add_test.go":   "package m\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"FAIL: add\")\n\t}\n}\n",
		"package.json":  `{"name": "m", "version": "1.0.0", "scripts": {"test": "node test.js"}}` + "\n",
		"test.js":       "const assert = require('assert');\nassert.strictEqual(1 + 1, 2);\nconsole.log('node tests ok');\n",
		"README.md":     "hello\n",
		".gitignore":    "node_modules\n",
		"sub/notes.txt": "notes\n",
	}
	for name, body := range files {
		must(t, os.MkdirAll(filepath.Join(ws, filepath.Dir(name)), 0o755))
		must(t, os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644))
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"add", "."},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}

func TestTheProjectsToolchainRunsInWorkspaceWrite(t *testing.T) {
	sharedtest.Tools(t, "git", "go", "node", "npm", "python3")
	h := toolchainHost(t)
	// A cold build cache (one per workspace) compiles the standard
	// library into /tmp first: the default /tmp, and a workspace path
	// that keeps its cache warm from one run to the next.
	ws := sharedtest.StableWorkspace(t, "toolchain")
	project(t, ws)
	must(t, os.WriteFile(filepath.Join(ws, "README.md"), []byte("hello\nchanged\n"), 0o644))
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite}
	tests := []struct{ name, cmd, want string }{
		{"go test", "go test ./... 2>&1 | grep -c '^ok'", "1\n"},
		{"go vet", "go vet ./... && echo vet-ok", "vet-ok\n"},
		{"node", "node -e 'console.log(6*7)'", "42\n"},
		{"npm test", "npm test 2>&1 | grep 'node tests ok'", "node tests ok\n"},
		{"git status", "git status --short", " M README.md\n"},
		{"git diff", "git diff --stat | head -1 | tr -s ' '", " README.md | 1 +\n"},
		{"python3 -c", "python3 -c 'print(sum(range(10)))'", "45\n"},
		{"a mixed pipeline", "go test -v ./... 2>&1 | grep -- '--- PASS' | sed 's/ (.*//' | head -1", "--- PASS: TestAdd\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The first go test of a checkout compiles the standard
			// library into the workspace's cache: on a busy machine that
			// is longer than runIn's two minutes.
			o := runInFor(t, h, scope, tt.cmd, 10*time.Minute)
			if string(o.Stdout) != tt.want {
				t.Fatalf("stdout %q, want %q (exit %d, stderr %q)", o.Stdout, tt.want, o.ExitCode, o.Stderr)
			}
		})
	}
}

func TestAHostProgramIsConfined(t *testing.T) {
	sharedtest.Tools(t, "git", "python3")
	h := hostProgs(t)
	ws, outside := sandboxDir(t)
	project(t, ws)
	home, err := os.UserHomeDir()
	must(t, err)
	homeCanary, err := os.MkdirTemp(home, ".ptc-canary-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(homeCanary) })
	must(t, os.WriteFile(filepath.Join(homeCanary, "key"), []byte("SECRET"), 0o600))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer l.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port
	tmpName := fmt.Sprintf("ptc-canary-%d", time.Now().UnixNano())
	gitCfg, _ := os.ReadFile(filepath.Join(ws, ".git", "config"))
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite}
	tests := []struct{ name, cmd string }{
		{"cannot write outside the workspace", "dash -c 'echo X > " + outside + "/secret.txt; echo X > " + outside + "/new.txt'"},
		{"cannot write the system", "dash -c 'echo X > /usr/ptc-canary'"},
		{"cannot write .git/config", "dash -c 'echo \"[core] fsmonitor = evil\" >> .git/config'"},
		{"cannot add a hook", "dash -c 'echo evil > .git/hooks/pre-commit'"},
		{"cannot make a nested repository", "dash -c 'mkdir -p vendor/.git && echo evil > vendor/.git/config'"},
		{"cannot plant ptc's config", "dash -c 'mkdir .ptc; echo x > .ptc/x; echo {} > .mcp.json'"},
		{"cannot point commondir elsewhere", "dash -c 'echo /tmp > .git/commondir'"},
		{"cannot read the user's HOME", "dash -c 'cat " + homeCanary + "/key'"},
		{"cannot reach a listener on 127.0.0.1", fmt.Sprintf("python3 -c \"import socket; socket.create_connection(('127.0.0.1', %d), timeout=2)\"", port)},
		{"its /tmp is private", "dash -c 'echo X > /tmp/" + tmpName + "'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runIn(t, h, scope, tt.cmd) })
	}
	canaryIntact(t, outside)
	if b, _ := os.ReadFile(filepath.Join(ws, ".git", "config")); string(b) != string(gitCfg) {
		t.Errorf(".git/config changed: %q", b)
	}
	for _, p := range []string{".git/hooks/pre-commit", "vendor/.git", ".ptc", ".mcp.json", ".git/commondir"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Errorf("%s exists after the attack", p)
		}
	}
	if _, err := os.Stat("/usr/ptc-canary"); err == nil {
		t.Error("/usr/ptc-canary was written")
	}
	if _, err := os.Stat(filepath.Join(os.TempDir(), tmpName)); err == nil {
		t.Errorf("the host /tmp got %s", tmpName)
	}
	select {
	case <-accepted:
		t.Error("a sandboxed program connected to a host listener")
	default:
	}
	t.Run("the refusals are explained", func(t *testing.T) {
		o := runIn(t, h, scope, "dash -c 'mkdir -p lib/.git && echo x > lib/.git/config && echo ok > fine.txt'")
		if !strings.Contains(string(o.Stderr), "refused") || !strings.Contains(string(o.Stderr), "lib/.git") {
			t.Fatalf("stderr %q", o.Stderr)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "fine.txt")); string(b) != "ok\n" {
			t.Fatalf("the allowed change did not land: %q", b)
		}
	})
}

func TestReadOnlyModeIsReadOnlyForHostPrograms(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	must(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("A"), 0o644))
	o := runIn(t, h, Scope{Workspace: ws, Mode: ReadOnly}, "dash -c 'cat a.txt; echo B > a.txt; echo C > new.txt'")
	if string(o.Stdout) != "A" || o.ExitCode == 0 || !strings.Contains(string(o.Stderr), "Read-only") {
		t.Fatalf("stdout %q exit %d stderr %q", o.Stdout, o.ExitCode, o.Stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "A" {
		t.Fatal("a.txt changed")
	}
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); err == nil {
		t.Fatal("new.txt was made")
	}
}

func TestGitCommitNeedsGitWrite(t *testing.T) {
	sharedtest.Tools(t, "git")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	project(t, ws)
	commit := "echo more >> README.md && git add README.md && git -c user.name=a -c user.email=a@example.com commit -q -m more && git log --oneline | wc -l | tr -d ' '"
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, commit)
	if o.ExitCode == 0 {
		t.Fatalf("commit in workspace-write succeeded: %q", o.Stdout)
	}
	o = runIn(t, h, Scope{Workspace: ws, Mode: GitWrite}, "git checkout -q -- README.md; "+commit)
	if string(o.Stdout) != "2\n" || o.ExitCode != 0 {
		t.Fatalf("commit in git-write: stdout %q exit %d stderr %q", o.Stdout, o.ExitCode, o.Stderr)
	}
	cmd := exec.Command("git", "log", "--oneline")
	cmd.Dir = ws
	if out, err := cmd.CombinedOutput(); err != nil || strings.Count(string(out), "\n") != 2 {
		t.Fatalf("the host's git sees %q %v", out, err)
	}
}

func TestAWorkspaceFillByAHostProgramStopsAtTheQuota(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "fill"}, "dash -c 'head -c 100000000 /dev/zero > big; echo small > small.txt'")
	if !strings.Contains(string(o.Stderr), "write quota") {
		t.Fatalf("stderr %q", o.Stderr)
	}
	if info, err := os.Stat(filepath.Join(ws, "big")); err == nil {
		t.Fatalf("big landed with %d bytes", info.Size())
	}
}

func TestTheGuestAndItsHostProgramsShareOnePrivateTmp(t *testing.T) {
	sharedtest.Tools(t, "python3")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite}
	tests := []struct{ name, cmd, want string }{
		{"a script the guest wrote runs on the host", "echo 'print(40+2)' > /tmp/x.py && python3 /tmp/x.py", "42\n"},
		{"what the host program writes the guest reads", "dash -c 'echo made-on-host > /tmp/o' && cat /tmp/o", "made-on-host\n"},
		{"removals come back too", "echo a > /tmp/gone && dash -c 'rm /tmp/gone' && ls /tmp", ""},
		{"a host program can run in /tmp", "mkdir /tmp/w && cd /tmp/w && echo 'print(3)' > s.py && python3 s.py", "3\n"},
		{"each call starts empty", "ls /tmp | wc -l | tr -d ' '", "0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runIn(t, h, scope, tt.cmd)
			if string(o.Stdout) != tt.want {
				t.Fatalf("stdout %q, want %q (exit %d, stderr %q)", o.Stdout, tt.want, o.ExitCode, o.Stderr)
			}
		})
	}
	t.Run("it is size-limited for the guest", func(t *testing.T) {
		o := runIn(t, h, scope, "yes | head -c 40000000 > /tmp/big; echo $?")
		if string(o.Stdout) == "0\n" {
			t.Fatalf("a 40 MB /tmp file was accepted: %q", o.Stderr)
		}
	})
	t.Run("and for host programs", func(t *testing.T) {
		o := runIn(t, h, scope, "dash -c 'head -c 60000000 /dev/zero > /tmp/big'; echo $?")
		if string(o.Stdout) == "0\n" {
			t.Fatalf("a 60 MB /tmp file was accepted: %q", o.Stderr)
		}
	})
}

func TestAWorkspaceFillByTheGuestStopsAtTheQuotaWithANote(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "guest-fill"}, "yes | head -c 100000000 > big")
	if !o.QuotaHit || !strings.Contains(o.Note, "write quota (64 MiB) is used up") {
		t.Fatalf("quota hit %v note %q stderr %q", o.QuotaHit, o.Note, o.Stderr)
	}
	if info, err := os.Stat(filepath.Join(ws, "big")); err != nil || info.Size() > 64<<20 {
		t.Fatalf("big: %v", err)
	}
	if o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "guest-fill"}, "rm big && echo freed > small"); o.QuotaHit || o.ExitCode != 0 {
		t.Fatalf("after removing the file the session can write again: %+v", o)
	}
}

func TestNetworkIsOnlyThereWhenAskedFor(t *testing.T) {
	sharedtest.Tools(t, "python3")
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	connect := fmt.Sprintf("python3 -c \"import socket; s = socket.create_connection(('127.0.0.1', %d), timeout=5); print(s.recv(10).decode().strip())\"", l.Addr().(*net.TCPAddr).Port)
	if o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, connect); o.ExitCode == 0 {
		t.Fatalf("connected without the network: %q", o.Stdout)
	}
	if o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite, Network: true}, connect); string(o.Stdout) != "hello\n" {
		t.Fatalf("with the network on: stdout %q stderr %q", o.Stdout, o.Stderr)
	}
}

func TestAHostProgramsSymlinksAndLinksStayInside(t *testing.T) {
	h := hostProgs(t)
	ws, outside := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite},
		"dash -c 'ln -s /etc/passwd abs; ln -s ../outside/secret.txt up; ln -s .git/config cfg; ln /etc/hostname hard; ln -s inside.txt ok; echo x > inside.txt'")
	for _, p := range []string{"abs", "up", "cfg", "hard"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Errorf("%s landed in the workspace", p)
		}
	}
	if target, err := os.Readlink(filepath.Join(ws, "ok")); err != nil || target != "inside.txt" {
		t.Errorf("an inside symlink did not land: %q %v", target, err)
	}
	if !strings.Contains(string(o.Stderr), "refused") {
		t.Errorf("no note on the refused links: %q", o.Stderr)
	}
	canaryIntact(t, outside)
}

func TestEachSessionSeesOnlyItsOwnSpill(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	spill := t.TempDir()
	a, b := filepath.Join(spill, "session-a"), filepath.Join(spill, "session-b")
	for _, d := range []string{a, b} {
		must(t, os.Mkdir(d, 0o700))
		must(t, os.WriteFile(filepath.Join(d, "out.txt"), []byte(filepath.Base(d)), 0o600))
	}
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "a", Spill: a}
	if o := runIn(t, h, scope, "cat "+a+"/out.txt"); string(o.Stdout) != "session-a" {
		t.Fatalf("own spill: %q %q", o.Stdout, o.Stderr)
	}
	if o := runIn(t, h, scope, "cat "+b+"/out.txt"); o.ExitCode == 0 {
		t.Fatalf("another session's spill was readable: %q", o.Stdout)
	}
	if o := runIn(t, h, scope, "dash -c 'cat "+b+"/out.txt'"); o.ExitCode == 0 {
		t.Fatalf("another session's spill was readable by a host program: %q", o.Stdout)
	}
	if o := runIn(t, h, scope, "dash -c 'cat "+a+"/out.txt; echo x > "+a+"/new'"); string(o.Stdout) != "session-a" {
		t.Fatalf("own spill from a host program: %q %q", o.Stdout, o.Stderr)
	}
	if _, err := os.Stat(filepath.Join(a, "new")); err == nil {
		t.Fatal("the spill directory was writable")
	}
}

func TestWithoutBubblewrapAHostProgramSaysWhatToInstall(t *testing.T) {
	wasm := testguest.Shell(t)
	h := NewHost(Config{Guest: func() []byte { return wasm }, HostExec: &HostExec{Bwrap: "/nonexistent/bwrap"}, PoolSize: -1})
	defer h.Close(context.Background())
	ws, _ := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, "git --version")
	if o.ExitCode != 127 || !strings.Contains(string(o.Stderr), "install it (Debian/Ubuntu: apt-get install bubblewrap") {
		t.Fatalf("exit %d stderr %q", o.ExitCode, o.Stderr)
	}
}
