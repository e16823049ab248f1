package hostexec

import (
	"context"
	"io"
	"strings"
	"testing"
)

// BenchmarkRun times one trivial program through Run alone (bwrap, the
// helper, its mounts and the empty change streams), without a guest.
func BenchmarkRun(b *testing.B) {
	r := NewRunner(Config{Home: b.TempDir()})
	if err := r.Available(); err != nil {
		b.Skip(err)
	}
	ws := b.TempDir()
	for _, writable := range []bool{false, true} {
		name := "read-only"
		if writable {
			name = "writable"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, err := r.Run(context.Background(), Spec{Path: "/bin/dash", Args: []string{"dash", "-c", "true"}, Dir: ws, Workspace: ws,
					Writable: writable, LayerSize: 64 << 20, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
