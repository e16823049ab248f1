package hostexec

import (
	"archive/tar"
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ptc-dev/ptc/sandbox/netns"
)

// Defaults of Config.
const (
	DefaultTmpSize = 512 << 20 // the private /tmp of one host program
)

// Config sets up a Runner. It is copied by NewRunner and never changes.
type Config struct {
	// Bwrap is the bubblewrap executable; "" means "bwrap" from PATH.
	Bwrap string
	// Home is the HOME host programs see, shared by every sandboxed run
	// (build and package caches live there); "" means
	// os.UserCacheDir()/ptc/sandbox-home. Never the user's own HOME.
	Home string
	// TmpSize bounds each program's private /tmp (a tmpfs, gone when the
	// program ends); 0 means DefaultTmpSize.
	TmpSize int64
	// Helper is the executable run as the in-sandbox helper; "" means
	// this process's own executable (see HelperName).
	Helper string
}

// Runner runs host programs under bwrap. Safe for concurrent use.
type Runner struct {
	cfg Config

	once     sync.Once
	bwrap    string
	helper   string
	availErr error
}

// NewRunner returns a Runner; nothing is checked until Available or Run.
func NewRunner(cfg Config) *Runner {
	if cfg.TmpSize <= 0 {
		cfg.TmpSize = DefaultTmpSize
	}
	return &Runner{cfg: cfg}
}

// Home is the sandbox HOME, created 0700 on first use.
func (r *Runner) Home() (string, error) {
	home := r.cfg.Home
	if home == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory for the sandbox HOME (%v); set XDG_CACHE_HOME", err)
		}
		home = filepath.Join(base, "ptc", "sandbox-home")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", fmt.Errorf("creating the sandbox HOME %s: %w", home, err)
	}
	return home, nil
}

// InstallHint says what to install when bubblewrap is missing.
const InstallHint = "host programs run under bubblewrap: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"

// Available reports whether host programs can run here: bwrap is found
// and can create the namespaces. The check runs once; its error says
// what to install or enable.
func (r *Runner) Available() error {
	r.once.Do(func() {
		r.bwrap = r.cfg.Bwrap
		if r.bwrap != "" {
			if _, err := exec.LookPath(r.bwrap); err != nil {
				r.availErr = fmt.Errorf("%s (%s: %v)", InstallHint, r.bwrap, err)
				return
			}
		} else {
			p, err := exec.LookPath("bwrap")
			if err != nil {
				r.availErr = errors.New(InstallHint)
				return
			}
			r.bwrap = p
		}
		r.helper = r.cfg.Helper
		if r.helper == "" {
			exe, err := os.Executable()
			if err != nil {
				r.availErr = fmt.Errorf("host programs: cannot find this executable to run the sandbox helper: %v", err)
				return
			}
			r.helper = exe
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		probe := exec.CommandContext(ctx, r.bwrap, "--unshare-all", "--die-with-parent", "--as-pid-1",
			"--cap-add", "CAP_SYS_ADMIN", "--ro-bind", "/", "/", "--", "/bin/true")
		if out, err := probe.CombinedOutput(); err != nil {
			r.availErr = fmt.Errorf("host programs: bwrap cannot create its namespaces here (%s): enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0, or an AppArmor profile allowing bwrap)",
				strings.TrimSpace(string(out)+" "+err.Error()))
		}
	})
	return r.availErr
}

// Spec is one host program to run.
type Spec struct {
	Path string   // the program's host path (from Resolver.Lookup)
	Args []string // argv, Args[0] the name it was called by
	Env  []string // its environment, "K=V"
	Dir  string   // working directory, inside Workspace or /tmp

	Workspace string
	// Writable puts the workspace under an overlay whose changes come
	// back through Apply; otherwise the workspace is mounted read-only.
	Writable bool
	// LayerSize bounds the bytes the overlay can hold (Writable).
	LayerSize int64
	// Protect lists workspace-relative paths made read-only in the
	// program's view (existing ones; Apply refuses the rest anyway).
	Protect []string
	// ReadOnly are host paths mounted read-only at their own path
	// (toolchain roots, the session's spill directory).
	ReadOnly []string
	Network  bool
	// NetNS, when set and Network is not, is the session's network
	// namespace the program joins instead of one of its own (netns.go).
	NetNS *netns.Namespace

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Apply receives the program's changes to the workspace (Writable),
	// after it exited. It runs before Run returns.
	Apply func(changes io.Reader) error
	// Tmp writes the contents the program's /tmp starts with, as a
	// change stream of whole files (nil: an empty /tmp); ApplyTmp then
	// receives what the program changed there. So the caller's /tmp and
	// the program's are one, though each is private to the call.
	Tmp      func(w io.Writer) error
	ApplyTmp func(changes io.Reader) error
}

// Result is how a host program ended.
type Result struct {
	ExitCode int
	Signal   string // set when a signal ended it
}

// Run runs the program and, for a writable workspace, hands its changes
// to spec.Apply. ctx ending kills the whole sandbox (its PID namespace
// dies with the helper); the changes of a killed program are dropped.
// An error means the sandbox itself could not run it.
func (r *Runner) Run(ctx context.Context, spec Spec) (Result, error) {
	if err := r.Available(); err != nil {
		return Result{}, err
	}
	home, err := r.Home()
	if err != nil {
		return Result{}, err
	}
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		return Result{}, err
	}
	args, binds := r.args(spec, home)
	cmd, err := r.command(ctx, spec, args)
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		repR.Close()
		repW.Close()
		return Result{}, err
	}
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = spec.Stdin, spec.Stdout, spec.Stderr
	cmd.ExtraFiles = []*os.File{cfgR, repW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Start()
	cfgR.Close()
	repW.Close()
	if err != nil {
		cfgW.Close()
		repR.Close()
		return Result{}, fmt.Errorf("starting bwrap: %w", err)
	}
	hc := helperConfig{Path: spec.Path, Args: spec.Args, Env: spec.Env, Dir: spec.Dir, Workspace: spec.Workspace,
		Overlay: spec.Writable, LayerSize: spec.LayerSize, TmpSize: 2 * r.cfg.TmpSize, Protect: spec.Protect, Binds: binds}
	go func() { // the helper reads it whole before anything else
		defer cfgW.Close()
		if json.NewEncoder(cfgW).Encode(hc) != nil {
			return
		}
		if spec.Tmp != nil {
			_ = spec.Tmp(cfgW)
		} else {
			_ = tar.NewWriter(cfgW).Close()
		}
	}()
	st, applyErr := readReport(repR, spec.Apply, spec.ApplyTmp)
	repR.Close()
	waitErr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return Result{ExitCode: -1, Signal: "killed"}, nil
	case st.Error != "":
		return Result{}, fmt.Errorf("sandbox helper: %s", st.Error)
	case !st.Started && st.ExitCode == 0:
		return Result{}, fmt.Errorf("bwrap ended before the program ran: %v", waitErr)
	case applyErr != nil:
		return Result{ExitCode: st.ExitCode, Signal: st.Signal}, applyErr
	}
	return Result{ExitCode: st.ExitCode, Signal: st.Signal}, nil
}

// readReport reads the helper's status line and hands the change streams
// after it to apply (the workspace's) and applyTmp (/tmp's). The report
// is read to its end either way, so the helper never blocks writing it.
func readReport(r io.Reader, apply, applyTmp func(io.Reader) error) (status, error) {
	br := bufio.NewReader(r)
	defer io.Copy(io.Discard, br)
	line, err := br.ReadBytes('\n')
	var st status
	if err != nil || json.Unmarshal(line, &st) != nil {
		return status{}, nil
	}
	var errs []error
	for _, part := range []struct {
		present bool
		apply   func(io.Reader) error
	}{{st.Changes, apply}, {st.Tmp, applyTmp}} {
		if !part.present {
			continue
		}
		if part.apply == nil {
			part.apply = func(r io.Reader) error { return ReadChanges(r, func(Change) error { return nil }) }
		}
		if err := part.apply(br); err != nil {
			// The stream is out of step now: what follows cannot be read.
			return st, errors.Join(append(errs, err)...)
		}
	}
	return st, errors.Join(errs...)
}

// args builds bwrap's command line. Paths under /tmp (a workspace, HOME
// or spill directory there) cannot be mounted by bwrap, since the helper
// mounts /tmp itself afterwards: bwrap puts them under mntPath and the
// helper binds them into place (the returned binds).
func (r *Runner) args(spec Spec, home string) ([]string, []bind) {
	a := []string{"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "ptc-sandbox",
		"--cap-add", "CAP_SYS_ADMIN"}
	if !spec.Network && spec.NetNS == nil {
		a = append(a, "--unshare-net")
	}
	for _, root := range systemRoots {
		info, err := os.Lstat(root)
		switch {
		case err != nil:
		case info.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(root); err == nil {
				a = append(a, "--symlink", target, root)
			}
		case info.IsDir():
			a = append(a, "--ro-bind", root, root)
		}
	}
	for _, secret := range maskedFiles {
		if info, err := os.Stat(secret); err == nil && info.Mode().IsRegular() {
			a = append(a, "--ro-bind", "/dev/null", secret)
		}
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--dir", "/tmp", "--dir", layerPath, "--dir", tmpLayer)
	var binds []bind
	mount := func(p string, readOnly bool) {
		flag := "--bind"
		if readOnly {
			flag = "--ro-bind"
		}
		if !underTmp(p) {
			a = append(a, flag, p, p)
			return
		}
		src := fmt.Sprintf("%s/%d", mntPath, len(binds))
		a = append(a, flag, p, src)
		binds = append(binds, bind{Src: src, Dst: p, ReadOnly: readOnly})
	}
	mount(home, false)
	for _, p := range spec.ReadOnly {
		if _, err := os.Stat(p); err == nil {
			mount(p, true)
		}
	}
	a = append(a, "--ro-bind", spec.Workspace, lowerPath)
	if !underTmp(spec.Workspace) {
		a = append(a, "--dir", spec.Workspace)
	}
	a = append(a, "--ro-bind", r.helper, helperPath, "--chdir", "/", "--clearenv",
		"--setenv", "PATH", "/usr/bin:/bin", "--", helperPath)
	return a, binds
}

func underTmp(p string) bool { return p == "/tmp" || strings.HasPrefix(p, "/tmp/") }

// maskedFiles are files under the read-only system roots a sandboxed
// program must not read even when ptc runs as root.
var maskedFiles = []string{"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers",
	"/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key"}
