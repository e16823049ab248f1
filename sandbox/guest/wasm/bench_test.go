package guestwasm

import (
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// BenchmarkReactorCall measures one request on a warm reactor instance.
func BenchmarkReactorCall(b *testing.B) {
	dir := b.TempDir()
	for _, bc := range []struct{ name, command string }{
		{"simple", "true"},
		{"pipeline_and_substitution", "echo $(seq 1 100 | grep 5 | wc -l)"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := newGuest(b, dir)
			req := proto.Request{Op: proto.OpShell, Cwd: dir, Command: bc.command}
			for b.Loop() {
				g.call(req)
			}
		})
	}
}
