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
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ptc-dev/ptc/sandbox/netns"
)

// Defaults of Config.
const (
	DefaultTmpSize = 512 << 20 // the private /tmp of one host program
	// ShmSize bounds each program's /dev/shm (POSIX shared memory and
	// semaphores); callers count it in their memory budgets.
	ShmSize = 64 << 20
)

// Config sets up a Runner. It is copied by NewRunner and never changes.
type Config struct {
	// Bwrap is the bubblewrap executable; "" means "bwrap" from PATH.
	Bwrap string
	// Root holds every workspace's sandbox state (see Dirs); "" means
	// os.UserCacheDir()/ptc/sandbox. Never the user's own HOME.
	Root string
	// TmpSize bounds each program's private /tmp (a tmpfs, gone when the
	// program ends); 0 means DefaultTmpSize.
	TmpSize int64
	// Helper is the executable run as the in-sandbox helper; "" means
	// this process's own executable (see HelperName).
	Helper string
	// Limits bound each program; a Spec may override them.
	Limits Limits
}

// Runner runs host programs under bwrap. Safe for concurrent use.
type Runner struct {
	cfg        Config
	processKey string // the session key of runs without one

	once     sync.Once
	bwrap    string
	helper   string
	availErr error

	pruneOnce sync.Once
	maskOnce  sync.Once
	masks     []mask
}

// NewRunner returns a Runner; nothing is checked until Available or Run.
func NewRunner(cfg Config) *Runner {
	if cfg.TmpSize <= 0 {
		cfg.TmpSize = DefaultTmpSize
	}
	return &Runner{cfg: cfg, processKey: newProcessKey()}
}

// Limits are the bounds programs get when their Spec sets none.
func (r *Runner) Limits() Limits { return r.cfg.Limits.resolved() }

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
	// back through Apply; otherwise the workspace is mounted read-only
	// (under a read-only overlay, so no socket in it can be reached).
	Writable bool
	// LayerSize bounds the bytes the overlay can hold (Writable).
	LayerSize int64
	// TmpSize bounds the program's /tmp: its starting contents and what
	// it writes there; 0 means twice Config.TmpSize.
	TmpSize int64
	// Protect lists workspace-relative paths made read-only in the
	// program's view (existing ones; Apply refuses the rest anyway).
	Protect []string
	// Dirs are HOME and the cache directory (from DirsFor), mounted
	// read-write at their own path; empty fields mount nothing.
	Dirs Dirs
	// ReadOnly are host paths mounted read-only at their own path
	// (toolchain roots, the session's spill directory).
	ReadOnly []string
	Network  bool
	// NetNS, when set and Network is not, is the session's network
	// namespace the program joins instead of one of its own (netns.go).
	NetNS *netns.Namespace
	// Limits override Config.Limits field by field (zero fields keep
	// the Runner's).
	Limits Limits

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

// limits are the spec's bounds over the Runner's.
func (r *Runner) limits(spec Spec) Limits {
	l := r.cfg.Limits
	if spec.Limits.Memory != 0 {
		l.Memory = spec.Limits.Memory
	}
	if spec.Limits.Pids != 0 {
		l.Pids = spec.Limits.Pids
	}
	if spec.Limits.CPU != 0 {
		l.CPU = spec.Limits.CPU
	}
	return l.resolved()
}

// Result is how a host program ended.
type Result struct {
	ExitCode int
	Signal   string // set when a signal ended it
	// PidsBy says how the pids limit was held: "pid_max",
	// "RLIMIT_NPROC" or why there was none.
	PidsBy string
}

// Run runs the program and, for a writable workspace, hands its changes
// to spec.Apply. ctx ending kills the whole sandbox (its PID namespace
// dies with the helper); the changes of a killed program are dropped.
// An error means the sandbox itself could not run it.
func (r *Runner) Run(ctx context.Context, spec Spec) (Result, error) {
	if err := r.Available(); err != nil {
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
	args, binds := r.args(spec)
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
	tmpSize := spec.TmpSize
	if tmpSize <= 0 {
		tmpSize = 2 * r.cfg.TmpSize
	}
	hc := helperConfig{Path: spec.Path, Args: spec.Args, Env: spec.Env, Dir: spec.Dir, Workspace: spec.Workspace,
		Overlay: spec.Writable, LayerSize: spec.LayerSize, TmpSize: tmpSize, Protect: spec.Protect, Binds: binds,
		Limits: r.limits(spec), Sockets: socketDirs(spec)}
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
	res := Result{ExitCode: st.ExitCode, Signal: st.Signal, PidsBy: st.PidsBy}
	switch {
	case ctx.Err() != nil:
		return Result{ExitCode: -1, Signal: "killed", PidsBy: st.PidsBy}, nil
	case st.Error != "":
		return Result{}, fmt.Errorf("sandbox helper: %s", st.Error)
	case !st.Started && st.ExitCode == 0:
		return Result{}, fmt.Errorf("bwrap ended before the program ran: %v", waitErr)
	case applyErr != nil:
		return res, applyErr
	}
	return res, nil
}

// socketDirs are the directories where the program may make socket
// files: its private /tmp and /dev/shm, its workspace layer and its
// session's HOME — never the shared cache directory.
func socketDirs(spec Spec) []string {
	dirs := []string{"/tmp", "/dev/shm", spec.Workspace}
	if spec.Dirs.Home != "" {
		dirs = append(dirs, spec.Dirs.Home)
	}
	return dirs
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

func underTmp(p string) bool { return p == "/tmp" || strings.HasPrefix(p, "/tmp/") }
