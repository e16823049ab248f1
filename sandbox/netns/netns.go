package netns

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// HolderName is the name the holder runs under: an executable started
// with it as argv[0] holds a namespace instead of running its main.
const HolderName = "ptc-netns-holder"

// Config sets up Start.
type Config struct {
	// Executable is run as the holder; "" means this process's own
	// executable (any binary linking the package can hold).
	Executable string
	// Nsenter is the nsenter program; "" means "nsenter" from PATH.
	Nsenter string
}

// Namespace is one held network namespace. Safe for concurrent use.
type Namespace struct {
	pid     int
	nsenter string

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  *os.File // closing it ends the holder
	closed bool
}

// startTimeout bounds the holder's start (it answers in milliseconds).
const startTimeout = 10 * time.Second

// Start starts a holder and waits until its loopback is up. The caller
// must Close the Namespace; the holder also ends when this process dies.
func Start(cfg Config) (*Namespace, error) {
	nsenter := cfg.Nsenter
	if nsenter == "" {
		nsenter = "nsenter"
	}
	nsenterPath, err := exec.LookPath(nsenter)
	if err != nil {
		return nil, fmt.Errorf("a shared session network needs nsenter (util-linux): %w", err)
	}
	exe := cfg.Executable
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("cannot find this executable to hold the network namespace: %w", err)
		}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	uid, gid := os.Getuid(), os.Getgid()
	cmd := &exec.Cmd{Path: exe, Args: []string{HolderName}, Env: []string{}, Dir: "/", Stdin: inR, Stdout: outW}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  unix.CLONE_NEWUSER | unix.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		// The holder keeps the one capability it needs across exec
		// (its uid is not root in its namespace): bringing up loopback.
		AmbientCaps: []uintptr{unix.CAP_NET_ADMIN},
		Pdeathsig:   syscall.SIGKILL,
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("starting the session network holder (are user namespaces allowed?): %w", err)
	}
	ns := &Namespace{pid: cmd.Process.Pid, nsenter: nsenterPath, cmd: cmd, stdin: inW}
	if err := ns.awaitReady(outR); err != nil {
		ns.Close()
		return nil, err
	}
	return ns, nil
}

// awaitReady reads the holder's one status line.
func (ns *Namespace) awaitReady(out *os.File) error {
	defer out.Close()
	_ = out.SetReadDeadline(time.Now().Add(startTimeout))
	line, err := bufio.NewReader(out).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case line == readyLine:
		return nil
	case strings.HasPrefix(line, "error: "):
		return fmt.Errorf("the session network holder failed: %s", strings.TrimPrefix(line, "error: "))
	default:
		return fmt.Errorf("the session network holder did not start: %v", err)
	}
}

// PID is the holder's process id.
func (ns *Namespace) PID() int { return ns.pid }

// Path is the /proc path of one of the holder's namespaces ("net",
// "user").
func (ns *Namespace) Path(kind string) string {
	return filepath.Join("/proc", strconv.Itoa(ns.pid), "ns", kind)
}

// ErrClosed is returned by Wrap once the Namespace is closed or its
// holder has died.
var ErrClosed = errors.New("the session network namespace is gone")

// Wrap returns the command line that runs path with args inside the
// namespace: nsenter joining the holder's user and network namespaces,
// then exec'ing path in place.
func (ns *Namespace) Wrap(path string, args []string) (string, []string, error) {
	ns.mu.Lock()
	closed := ns.closed
	ns.mu.Unlock()
	if closed {
		return "", nil, ErrClosed
	}
	if _, err := os.Stat(ns.Path("net")); err != nil {
		return "", nil, ErrClosed
	}
	argv := append([]string{"--user=" + ns.Path("user"), "--net=" + ns.Path("net"), "--preserve-credentials", "--", path}, args...)
	return ns.nsenter, argv, nil
}

// Close ends the holder and reaps it. Programs still inside the
// namespace keep it alive until they end; the caller stops them first.
func (ns *Namespace) Close() error {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.closed {
		return nil
	}
	ns.closed = true
	ns.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- ns.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = ns.cmd.Process.Kill()
		<-done
	}
	return nil
}
