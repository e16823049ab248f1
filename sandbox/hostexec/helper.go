package hostexec

import (
	"encoding/json"
	"errors"
	"fmt"

	"os"
	"os/exec"
	"path/filepath"
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
	layerPath  = helperDir + "/layer" // tmpfs holding the overlay's upper and work dirs
	upperPath  = layerPath + "/upper"
	workPath   = layerPath + "/work"
)

// Descriptors the helper inherits from bwrap.
const (
	configFD = 3 // the helperConfig, JSON, until EOF
	reportFD = 4 // the status line, then the changes (tar)
)

// helperConfig is what Run tells the helper.
type helperConfig struct {
	Path      string   `json:"path"`
	Args      []string `json:"args"`
	Env       []string `json:"env"`
	Dir       string   `json:"dir"`
	Workspace string   `json:"workspace"`
	Overlay   bool     `json:"overlay"`
	LayerSize int64    `json:"layerSize"`
	Protect   []string `json:"protect"` // workspace-relative, bound read-only
}

// status is the helper's first line on reportFD.
type status struct {
	Started  bool   `json:"started"`
	ExitCode int    `json:"exitCode"`
	Signal   string `json:"signal,omitempty"`
	Error    string `json:"error,omitempty"` // the helper itself failed
	Changes  bool   `json:"changes"`         // a tar of changes follows
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
	var cfg helperConfig
	if err := json.NewDecoder(os.NewFile(configFD, "config")).Decode(&cfg); err != nil {
		return fail("reading the configuration: %v", err)
	}
	_ = unix.Close(configFD)
	if cfg.Overlay {
		if err := mountLayer(cfg); err != nil {
			return fail("%v", err)
		}
	}
	for _, p := range cfg.Protect {
		if err := bindReadOnly(filepath.Join(cfg.Workspace, p)); err != nil {
			return fail("protecting %s: %v", p, err)
		}
	}
	st := runProgram(cfg)
	// Anything the program left running (a daemon, a background job)
	// stops now, before its layer is read. The helper is PID 1 here.
	_ = unix.Kill(-1, unix.SIGKILL)
	st.Changes = cfg.Overlay
	if err := json.NewEncoder(report).Encode(st); err != nil {
		return 1
	}
	if cfg.Overlay {
		if err := writeChanges(report, upperPath); err != nil {
			return 1
		}
	}
	return 0
}

// mountLayer puts an overlay on the workspace path: reads come from the
// read-only workspace below, writes land in a tmpfs of LayerSize bytes.
// redirect_dir and metacopy stay off, so every change in the upper
// directory is complete in itself (a renamed directory is copied, a
// changed mode copies the file) and can be applied elsewhere.
func mountLayer(cfg helperConfig) error {
	if err := unix.Mount("tmpfs", layerPath, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, fmt.Sprintf("size=%d,mode=0700", cfg.LayerSize)); err != nil {
		return fmt.Errorf("mounting the write layer: %w", err)
	}
	for _, d := range []string{upperPath, workPath} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	opts := "lowerdir=" + lowerPath + ",upperdir=" + upperPath + ",workdir=" + workPath + ",userxattr"
	if err := unix.Mount("overlay", cfg.Workspace, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting the overlay on the workspace (needs Linux 5.11 or later): %w", err)
	}
	return nil
}

// bindReadOnly makes p read-only in the program's view (a file or a
// directory, with what lies below it).
func bindReadOnly(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil // gone meanwhile: the apply step refuses it anyway
		}
		return err
	}
	return unix.Mount("", p, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, "")
}

// runProgram runs the program with the helper's stdio in a user namespace
// of its own: it keeps its uid but holds no capability over the helper's
// mounts, so it cannot unmount the overlay or the read-only binds.
func runProgram(cfg helperConfig) status {
	uid, gid := os.Getuid(), os.Getgid()
	cmd := &exec.Cmd{Path: cfg.Path, Args: cfg.Args, Env: cfg.Env, Dir: cfg.Dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  unix.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
	}
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
