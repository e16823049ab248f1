package hostexec

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// HelperName is the name the helper runs under inside the sandbox; an
// executable started with it as argv[0] runs the helper, not its main.
const HelperName = "ptc-sandbox-helper"

// Paths inside the sandbox (under bwrap's own tmpfs root).
const (
	helperDir  = "/run/ptc"
	helperPath = helperDir + "/" + HelperName
	lowerPath  = helperDir + "/lower" // the workspace, read-only, below the overlay
	mntPath    = helperDir + "/mnt"   // host paths the helper binds after /tmp is up
	layerPath  = helperDir + "/layer" // tmpfs holding the workspace overlay's upper and work dirs
	upperPath  = layerPath + "/upper"
	workPath   = layerPath + "/work"
	tmpLayer   = helperDir + "/tmplayer" // tmpfs holding /tmp's lower, upper and work dirs
	tmpLower   = tmpLayer + "/lower"
	tmpUpper   = tmpLayer + "/upper"
	tmpWork    = tmpLayer + "/work"
	emptyPath  = helperDir + "/empty" // the second, empty lower layer of a read-only workspace
)

// Descriptors the helper inherits from bwrap.
const (
	configFD = 3 // the helperConfig (one JSON line), then a tar of /tmp's contents
	reportFD = 4 // the status line, then the workspace changes and the /tmp changes (tars)
)

// helperConfig is what Run tells the helper.
type helperConfig struct {
	Path      string   `json:"path"`
	Args      []string `json:"args"`
	Env       []string `json:"env"`
	Dir       string   `json:"dir"`
	Workspace string   `json:"workspace"`
	Overlay   bool     `json:"overlay"` // workspace writes come back as changes
	LayerSize int64    `json:"layerSize"`
	TmpSize   int64    `json:"tmpSize"` // /tmp's tmpfs: its starting contents and the changes
	Protect   []string `json:"protect"` // workspace-relative, bound read-only
	Binds     []bind   `json:"binds"`
	Limits    Limits   `json:"limits"`  // resolved
	Sockets   []string `json:"sockets"` // where socket files may be made
}

// bind is a host path bwrap put at Src that the helper binds at Dst
// once /tmp is mounted (the destination lies under /tmp).
type bind struct {
	Src      string `json:"src"`
	Dst      string `json:"dst"`
	ReadOnly bool   `json:"readOnly"`
}

// status is the helper's first line on reportFD.
type status struct {
	Started  bool   `json:"started"`
	ExitCode int    `json:"exitCode"`
	Signal   string `json:"signal,omitempty"`
	Error    string `json:"error,omitempty"` // the helper itself failed
	Changes  bool   `json:"changes"`         // the workspace changes follow (tar)
	Tmp      bool   `json:"tmp"`             // then the /tmp changes (tar)
	PidsBy   string `json:"pidsBy,omitempty"`
}

func init() {
	if filepath.Base(os.Args[0]) == HelperName {
		os.Exit(helperMain())
	}
}

func helperMain() int {
	report := os.NewFile(reportFD, "report")
	syscall.CloseOnExec(reportFD)
	fail := func(format string, a ...any) int {
		_ = json.NewEncoder(report).Encode(status{Error: fmt.Sprintf(format, a...)})
		return 1
	}
	in := bufio.NewReader(os.NewFile(configFD, "config"))
	line, err := in.ReadBytes('\n')
	var cfg helperConfig
	if err != nil || json.Unmarshal(line, &cfg) != nil {
		return fail("reading the configuration: %v", err)
	}
	err = mountAll(cfg, in)
	_ = unix.Close(configFD)
	if err != nil {
		return fail("%v", err)
	}
	st := runProgram(cfg)
	// Anything the program left running (a daemon, a background job)
	// stops now, before its layers are read. The helper is PID 1 here.
	_ = unix.Kill(-1, unix.SIGKILL)
	dropMountPoints(cfg)
	st.Changes, st.Tmp = cfg.Overlay, true
	if err := json.NewEncoder(report).Encode(st); err != nil {
		return 1
	}
	if cfg.Overlay {
		if err := writeChanges(report, upperPath); err != nil {
			return 1
		}
	}
	if err := writeChanges(report, tmpUpper); err != nil {
		return 1
	}
	return 0
}

// mountAll builds the program's view: the write layer, /tmp (an overlay
// on the caller's /tmp contents read from seed), the workspace (an
// overlay, or read-only), the binds under /tmp, the protected paths.
func mountAll(cfg helperConfig, seed io.Reader) error {
	for _, l := range []struct {
		dir  string
		size int64
		subs []string
	}{{layerPath, cfg.LayerSize, []string{upperPath, workPath}}, {tmpLayer, cfg.TmpSize, []string{tmpLower, tmpUpper, tmpWork}}} {
		if err := unix.Mount("tmpfs", l.dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, fmt.Sprintf("size=%d,mode=0700", max(l.size, 1<<20))); err != nil {
			return fmt.Errorf("mounting a write layer: %w", err)
		}
		for _, d := range l.subs {
			if err := os.Mkdir(d, 0o700); err != nil {
				return err
			}
		}
	}
	if err := extract(tmpLower, seed); err != nil {
		return fmt.Errorf("filling /tmp: %w", err)
	}
	if err := overlay("/tmp", tmpLower, tmpUpper, tmpWork); err != nil {
		return err
	}
	if err := os.Chmod("/tmp", 0o1777); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Workspace, 0o755); err != nil {
		return err
	}
	if cfg.Overlay {
		if err := overlay(cfg.Workspace, lowerPath, upperPath, workPath); err != nil {
			return err
		}
	} else if err := readOnlyOverlay(cfg.Workspace, lowerPath); err != nil {
		return fmt.Errorf("mounting the workspace: %w", err)
	}
	for _, b := range cfg.Binds {
		if err := bindAt(b.Src, b.Dst, b.ReadOnly); err != nil {
			return fmt.Errorf("mounting %s: %w", b.Dst, err)
		}
	}
	for _, p := range cfg.Protect {
		target := filepath.Join(cfg.Workspace, p)
		if err := bindAt(target, target, true); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("protecting %s: %w", p, err)
		}
	}
	return nil
}

// overlay mounts an overlay at dir. userxattr (needed in a user
// namespace) also turns off redirect_dir and metacopy, so every change in
// the upper directory is complete in itself (a renamed directory is
// copied, a changed mode copies the file) and can be applied elsewhere.
func overlay(dir, lower, upper, work string) error {
	opts := "lowerdir=" + lower + ",upperdir=" + upper + ",workdir=" + work + ",userxattr"
	if err := unix.Mount("overlay", dir, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting an overlay on %s (needs Linux 5.11 or later): %w", dir, err)
	}
	return nil
}

// bwrap's /proc is writable where the kernel allows: as root (a
// container, CI) a program in the sandbox keeps uid 0, and uid 0 may write
// every sysctl in /proc/sys whatever its namespace — vm.overcommit_memory,
// or kernel.core_pattern, which makes the host run a program of its
// choosing when anything crashes. bwrap covers only the /proc directories
// the caller can write by their mode, which /proc/sys (r-xr-xr-x) is not.
// So the helper makes the parts of /proc that containers keep read-only
// read-only, and hides those they mask.
var (
	procReadOnly = []string{"/proc/sys", "/proc/sysrq-trigger", "/proc/fs", "/proc/irq", "/proc/bus"}
	procMasked   = []string{"/proc/kcore", "/proc/keys", "/proc/timer_list", "/proc/sched_debug", "/proc/latency_stats",
		"/proc/acpi", "/proc/scsi", "/proc/asound"}
)

// protectProc applies procReadOnly and procMasked to what exists.
func protectProc() error {
	for _, p := range procReadOnly {
		if err := bindAt(p, p, true); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("making %s read-only: %w", p, err)
		}
	}
	for _, p := range procMasked {
		info, err := os.Lstat(p)
		switch {
		case err != nil:
			continue
		case info.IsDir():
			err = unix.Mount("tmpfs", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=0,mode=0555")
		default:
			err = bindAt("/dev/null", p, true)
		}
		if err != nil {
			return fmt.Errorf("masking %s: %w", p, err)
		}
	}
	return nil
}

// readOnlyOverlay mounts lower read-only at dir through an overlay (with
// an empty second layer: overlayfs wants two without an upper one). A
// unix socket cannot be connected through an overlay, so a host
// service's socket in the workspace (a database's .s.PGSQL.5432) stays
// out of reach, as it does in a writable workspace.
func readOnlyOverlay(dir, lower string) error {
	opts := "lowerdir=" + lower + ":" + emptyPath
	if err := unix.Mount("overlay", dir, "overlay", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting a read-only overlay on %s: %w", dir, err)
	}
	return nil
}

// bindAt binds src at dst (creating the mount point), read-only if asked.
func bindAt(src, dst string, readOnly bool) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if info.IsDir() {
		err = os.MkdirAll(dst, 0o755)
	} else if _, serr := os.Stat(dst); serr != nil {
		err = os.MkdirAll(filepath.Dir(dst), 0o755)
		if err == nil {
			err = os.WriteFile(dst, nil, 0o600)
		}
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	if !readOnly {
		return nil
	}
	return unix.Mount("", dst, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, "")
}

// dropMountPoints unmounts what the helper mounted under /tmp (a
// workspace, HOME or spill directory there) and removes the directories
// it made for them, so they do not come back as the program's changes.
func dropMountPoints(cfg helperConfig) {
	dsts := []string{cfg.Workspace}
	for _, b := range cfg.Binds {
		dsts = append(dsts, b.Dst)
	}
	for _, d := range dsts {
		if !underTmp(d) {
			continue
		}
		_ = unix.Unmount(d, unix.MNT_DETACH)
		for p := d; p != "/tmp" && os.Remove(p) == nil; p = filepath.Dir(p) {
		}
	}
}

// runProgram runs the program with the helper's stdio in a user namespace
// of its own: it keeps its uid but holds no capability over the helper's
// mounts, so it cannot unmount the overlay or the read-only binds. The
// limits are set on the helper first (the program inherits them); the
// socket rule confines only the thread that starts the program, which
// is never handed back to the runtime (a Landlock-confined thread can no
// longer mount or unmount, which the helper still does afterwards).
func runProgram(cfg helperConfig) status {
	pidsBy, err := applyLimits(cfg.Limits)
	if err != nil {
		return status{Error: err.Error()}
	}
	if err := protectProc(); err != nil {
		return status{Error: err.Error()}
	}
	done := make(chan status, 1)
	go func() {
		runtime.LockOSThread() // no unlock: the thread ends with the goroutine
		if _, err := restrictSockets(cfg.Sockets); err != nil {
			done <- status{Error: err.Error()}
			return
		}
		done <- startProgram(cfg)
	}()
	st := <-done
	st.PidsBy = pidsBy
	return st
}

func startProgram(cfg helperConfig) status {
	uid, gid := os.Getuid(), os.Getgid()
	cmd := &exec.Cmd{Path: cfg.Path, Args: cfg.Args, Env: cfg.Env, Dir: cfg.Dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  unix.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
	}
	ttyAttr(cmd.SysProcAttr)
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return status{Started: true}
	case errors.As(err, &exit):
		st := status{Started: true, ExitCode: exit.ExitCode()}
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			st.ExitCode, st.Signal = 128+int(ws.Signal()), ws.Signal().String()
		}
		return st
	case errors.Is(err, os.ErrPermission):
		fmt.Fprintf(os.Stderr, "%s: %v\n", cfg.Args[0], err)
		return status{ExitCode: 126}
	default:
		fmt.Fprintf(os.Stderr, "%s: %v\n", cfg.Args[0], err)
		return status{ExitCode: 127}
	}
}

// extract unpacks a change stream of whole files (the caller's /tmp) into
// dir. It runs inside the sandbox, on a tmpfs of its own: a hostile name
// or link can only reach what the sandbox itself can.
func extract(dir string, r io.Reader) error {
	return ReadChanges(r, func(c Change) error {
		p := filepath.Join(dir, c.Path)
		switch c.Kind {
		case KindDir:
			return os.MkdirAll(p, c.Mode.Perm()|0o700)
		case KindSymlink:
			return os.Symlink(c.Target, p)
		case KindFile:
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, c.Mode.Perm())
			if err != nil {
				return err
			}
			_, err = io.Copy(f, c.Body)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil && !c.ModTime.IsZero() {
				err = os.Chtimes(p, c.ModTime, c.ModTime)
			}
			return err
		}
		return nil
	})
}
