package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// The resident shell server keeps one sandbox host — the compiled guest
// and its pools of ready instances — alive between `ptc sh` processes, so
// that a warm `ptc sh` costs a connect and a pooled command instead of
// loading 15 MB of guest and tens of MB of native code (RATIONALE, "ptc
// sh talks to a resident per-user server"). It listens on a socket in a
// 0700 directory of the user's that no host program's bubblewrap mounts,
// and it refuses any peer that is not this user in this process's own
// user, PID and mount namespaces, which every host program (bwrap makes
// new ones) and the guest (no sockets at all) fail.

// ShellServerEnv disables the server when set to "0" (every `ptc sh`
// then loads the guest itself, as before).
const ShellServerEnv = "PTC_SH_SERVER"

// ShellServerIdle is how long a server waits for its next command before
// it exits.
const ShellServerIdle = 5 * time.Minute

// shellRequest is one command sent to the server.
type shellRequest struct {
	Workspace string        `json:"workspace"`
	Mode      sandbox.Mode  `json:"mode"`
	Network   bool          `json:"network"`
	Command   string        `json:"command"`
	Timeout   time.Duration `json:"timeout"`
}

// shellResponse is the server's answer: the outcome, or why it could not
// run the command.
type shellResponse struct {
	Outcome sandbox.Outcome `json:"outcome"`
	Error   string          `json:"error,omitempty"`
}

// ShellSocket is the socket of the resident server for this binary and
// this environment (a server answers only for the environment it was
// started in: its host programs see that PATH and those PTC_HOST_*
// bounds); its directory is created 0700. It is under $XDG_RUNTIME_DIR
// when that is set, else the user's cache directory.
func ShellSocket() (string, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" || !filepath.IsAbs(base) {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		base = d
	}
	dir := filepath.Join(base, "ptc", "run")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", err
	}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil || int(st.Uid) != os.Getuid() || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return "", fmt.Errorf("the server directory %s is not a directory of this user's", dir)
	}
	key, err := serverKey()
	if err != nil {
		return "", err
	}
	sock := filepath.Join(dir, "sh-"+key+".sock")
	if len(sock) > maxSocketPath {
		return "", fmt.Errorf("the server socket %s is longer than a socket address allows", sock)
	}
	return sock, nil
}

// maxSocketPath is the longest socket path bind accepts on Linux (108
// bytes with the terminating NUL).
const maxSocketPath = 107

// serverKey names a server by the executable (path, size, modification
// time: a rebuilt ptc gets a server of its own) and the environment,
// less the variables a shell changes as it moves about.
func serverKey() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", exe, info.Size(), info.ModTime().UnixNano())
	env := os.Environ()
	slices.Sort(env)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "PWD", "OLDPWD", "SHLVL", "_":
			continue
		}
		fmt.Fprintf(h, "%s\x00", kv)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// errNoServer is dialShell's answer when no server listens (the caller
// runs the command itself); any other error means the command may have
// run and must not be run again.
var errNoServer = errors.New("no resident shell server")

// dialShell runs o on the server at sock.
func dialShell(ctx context.Context, sock string, o ShellOptions) (sandbox.Outcome, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return sandbox.Outcome{}, errNoServer
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() }) // a cancelled ptc sh stops the command
	defer stop()
	req := shellRequest{Workspace: o.Workspace, Mode: o.Mode, Network: o.Network, Command: o.Command, Timeout: o.Timeout}
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return sandbox.Outcome{}, fmt.Errorf("sending the command to the shell server: %w", err)
	}
	var resp shellResponse
	if err := json.NewDecoder(conn).Decode(&resp); err != nil {
		if ctx.Err() != nil {
			return sandbox.Outcome{}, ctx.Err()
		}
		return sandbox.Outcome{}, fmt.Errorf("the shell server did not answer: %w", err)
	}
	if resp.Error != "" {
		return sandbox.Outcome{}, errors.New(resp.Error)
	}
	return resp.Outcome, nil
}

// ServeShell serves `ptc sh` commands on a socket at sock until no command
// came for idle or ctx ends; it returns at once, with nil, when another
// server already answers there. Commands run as RunShell runs them, on one
// host with instance pools.
func ServeShell(ctx context.Context, sock string, idle time.Duration) error {
	ln, err := listenShell(sock)
	if err != nil || ln == nil {
		return err
	}
	defer ln.Close()
	hx, err := sandbox.HostExecFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	host := sandbox.NewHost(sandbox.Config{HostExec: hx})
	host.Warm()
	defer host.Close(context.Background())
	s := &shellServer{host: host, ln: ln, idle: idle, last: time.Now()}
	return s.serve(ctx)
}

// listenShell listens at sock, replacing a socket nobody answers on; nil
// when a server already answers. The socket is made 0600 (its directory
// is 0700 already; no umask is changed, which would be process-wide).
func listenShell(sock string) (*net.UnixListener, error) {
	addr := &net.UnixAddr{Name: sock, Net: "unix"}
	ln, err := net.ListenUnix("unix", addr)
	if err != nil {
		if c, derr := net.Dial("unix", sock); derr == nil {
			c.Close()
			return nil, nil
		}
		if rerr := os.Remove(sock); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, err
		}
		if ln, err = net.ListenUnix("unix", addr); err != nil {
			return nil, err
		}
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

type shellServer struct {
	host *sandbox.Host
	ln   *net.UnixListener
	idle time.Duration

	mu      sync.Mutex
	running int
	last    time.Time
}

func (s *shellServer) serve(ctx context.Context) error {
	for {
		if err := s.ln.SetDeadline(time.Now().Add(time.Second)); err != nil {
			return err
		}
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				return err
			}
			if ctx.Err() != nil || s.idleFor() > s.idle {
				return nil
			}
			continue
		}
		go s.handle(ctx, conn)
	}
}

// idleFor is how long the server has had nothing to do.
func (s *shellServer) idleFor() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running > 0 {
		return 0
	}
	return time.Since(s.last)
}

func (s *shellServer) busy(d int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running += d
	s.last = time.Now()
}

func (s *shellServer) handle(ctx context.Context, conn *net.UnixConn) {
	defer conn.Close()
	s.busy(1)
	defer s.busy(-1)
	if err := samePeer(conn); err != nil {
		return // nothing to say to a stranger
	}
	var req shellRequest
	dec := json.NewDecoder(io.LimitReader(conn, 16<<20))
	if err := dec.Decode(&req); err != nil {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // the client went away: stop its command
		var b [1]byte
		_, _ = conn.Read(b[:])
		cancel()
	}()
	var resp shellResponse
	o, err := s.run(ctx, req)
	if err != nil {
		resp.Error = err.Error()
	}
	resp.Outcome = o
	_ = json.NewEncoder(conn).Encode(resp)
}

// run is RunShell's work on the server's host.
func (s *shellServer) run(ctx context.Context, req shellRequest) (sandbox.Outcome, error) {
	if !filepath.IsAbs(req.Workspace) || req.Mode == sandbox.DangerFullAccess {
		return sandbox.Outcome{}, fmt.Errorf("the shell server runs sandboxed commands in an absolute workspace only")
	}
	if _, err := sandbox.ParseMode(string(req.Mode)); err != nil {
		return sandbox.Outcome{}, err
	}
	if req.Timeout <= 0 {
		req.Timeout = toolbox.DefaultBashTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	return toolbox.RunCommand(ctx, s.host, sandbox.Scope{Workspace: req.Workspace, Mode: req.Mode, Network: req.Network}, req.Command, req.Workspace)
}

// samePeer accepts only a peer that is this user in this process's own
// user, PID and mount namespaces: a host program (bubblewrap gives each
// new ones) that could see the socket still cannot use it.
func samePeer(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) { cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) }); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if int(cred.Uid) != os.Getuid() || cred.Pid <= 0 {
		return fmt.Errorf("peer uid %d", cred.Uid)
	}
	for _, ns := range []string{"user", "pid", "mnt"} {
		mine, err1 := os.Readlink("/proc/self/ns/" + ns)
		theirs, err2 := os.Readlink(fmt.Sprintf("/proc/%d/ns/%s", cred.Pid, ns))
		if err1 != nil || err2 != nil || mine != theirs {
			return fmt.Errorf("peer %d is in another %s namespace", cred.Pid, ns)
		}
	}
	return nil
}

// RunShellResident runs o on the resident server at sock when one answers
// there (served is true), and otherwise exactly as RunShell does, in this
// process; the caller may then start a server for the next command. A
// danger-full-access command never goes to the server.
func RunShellResident(ctx context.Context, sock string, o ShellOptions) (out sandbox.Outcome, served bool, err error) {
	if o.Mode != sandbox.DangerFullAccess {
		if o.Timeout <= 0 {
			o.Timeout = toolbox.DefaultBashTimeout
		}
		out, err = dialShell(ctx, sock, o)
		if !errors.Is(err, errNoServer) {
			return out, true, err
		}
	}
	out, err = RunShell(ctx, o)
	return out, false, err
}
