package hostexec

import (
	"fmt"
	"os"
	"strconv"
)

// bwrap's command line is built from small parts, in the order bwrap
// applies them: the namespaces, the system roots (then the masks over
// them), the scratch mounts, the program's directories, the workspace
// and the helper, and last the root made read-only. A new option (a
// network namespace of the session's, say) is one more part.

// args builds bwrap's command line. Paths under /tmp (a workspace, HOME
// or spill directory there) cannot be mounted by bwrap, since the helper
// mounts /tmp itself afterwards: bwrap puts them under mntPath and the
// helper binds them into place (the returned binds).
func (r *Runner) args(spec Spec) ([]string, []bind) {
	a := namespaceArgs(spec.Network || spec.NetNS != nil)
	a = append(a, systemArgs()...)
	a = append(a, scratchArgs()...)
	m := &mounts{}
	m.add(spec.Dirs.Home, false)
	m.add(spec.Dirs.Cache, false)
	for _, p := range spec.ReadOnly {
		if _, err := os.Stat(p); err == nil {
			m.add(p, true)
		}
	}
	a = append(a, m.args...)
	a = append(a, workspaceArgs(spec.Workspace)...)
	a = append(a, maskArgs(r.masksFor(), append([]string{spec.Workspace, spec.Dirs.Home, spec.Dirs.Cache}, spec.ReadOnly...))...)
	a = append(a, helperArgs(r.helper)...)
	return a, m.binds
}

// namespaceArgs are the namespaces: all new, the network's unless the
// program may use the host's or joins its session's (Spec.NetNS, in which
// bwrap itself is started: see command).
func namespaceArgs(keepNet bool) []string {
	a := []string{"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "ptc-sandbox",
		"--cap-add", "CAP_SYS_ADMIN"}
	if !keepNet {
		a = append(a, "--unshare-net")
	}
	return a
}

// systemArgs mount the system roots read-only (a root that is a symlink,
// as /bin is on a merged /usr, stays one).
func systemArgs() []string {
	var a []string
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
	return a
}

// scratchArgs are /proc, /dev with a size-limited /dev/shm, and the
// mount points the helper fills (/tmp, the layers, the empty lower layer).
func scratchArgs() []string {
	return []string{"--proc", "/proc", "--dev", "/dev",
		"--perms", "1777", "--size", strconv.FormatInt(ShmSize, 10), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
		"--dir", "/tmp", "--dir", layerPath, "--dir", tmpLayer, "--dir", emptyPath}
}

// mounts collects the binds of host directories at their own path.
type mounts struct {
	args  []string
	binds []bind
}

func (m *mounts) add(p string, readOnly bool) {
	if p == "" {
		return
	}
	flag := "--bind"
	if readOnly {
		flag = "--ro-bind"
	}
	if !underTmp(p) {
		m.args = append(m.args, flag, p, p)
		return
	}
	src := fmt.Sprintf("%s/%d", mntPath, len(m.binds))
	m.args = append(m.args, flag, p, src)
	m.binds = append(m.binds, bind{Src: src, Dst: p, ReadOnly: readOnly})
}

// workspaceArgs put the workspace read-only below the helper's overlay,
// with a mount point at its own path.
func workspaceArgs(ws string) []string {
	a := []string{"--ro-bind", ws, lowerPath}
	if !underTmp(ws) {
		a = append(a, "--dir", ws)
	}
	return a
}

// helperArgs start the helper with a clean environment, after making the
// sandbox's root read-only: nothing can be written outside the mounts
// that bound what they hold.
func helperArgs(helper string) []string {
	return []string{"--ro-bind", helper, helperPath, "--remount-ro", "/", "--chdir", "/", "--clearenv",
		"--setenv", "PATH", "/usr/bin:/bin", "--", helperPath}
}
