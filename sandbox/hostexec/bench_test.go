package hostexec

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/netns"
)

// BenchmarkRun times one trivial program through Run alone (bwrap, the
// helper, its mounts and the empty change streams), without a guest.
func BenchmarkRun(b *testing.B) {
	r := NewRunner(Config{Root: b.TempDir()})
	if err := r.Available(); err != nil {
		b.Skip(err)
	}
	ws := b.TempDir()
	dirs, err := r.DirsFor(ws, "bench")
	if err != nil {
		b.Fatal(err)
	}
	r.masksFor() // once per process (as root), not per program
	// session-network: the program joins a session's network namespace
	// through nsenter instead of bwrap making one for it.
	ns := sessionNet(b)
	for _, c := range []struct {
		name     string
		writable bool
		net      *netns.Namespace
	}{{"read-only", false, nil}, {"writable", true, nil}, {"read-only/session-network", false, ns}, {"writable/session-network", true, ns}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_, err := r.Run(context.Background(), Spec{Path: "/bin/dash", Args: []string{"dash", "-c", "true"}, Dir: ws, Workspace: ws,
					Writable: c.writable, LayerSize: 64 << 20, Dirs: dirs, NetNS: c.net, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
