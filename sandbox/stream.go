package sandbox

import (
	"context"
	"io"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// RunStream performs one request as RunIn does, in the same scope (mode,
// protected paths, quota, session network), for a command that runs in
// the background (a job):
//   - stdout and stderr go to w as they are written, in one stream,
//     instead of being collected and capped (w keeps its own bounds);
//     the Outcome carries no output;
//   - it holds none of the MaxRunning slots, which pace short commands:
//     the caller bounds how many background commands run;
//   - its instance is its own and is released afterwards, so a job that
//     runs for hours neither waits for nor skews the pool's instances.
//
// ctx ending stops it (and every host program it started) as it stops
// a foreground command.
func (h *Host) RunStream(ctx context.Context, scope Scope, req proto.Request, w io.Writer) (Outcome, error) {
	key, err := newKey(scope)
	if err != nil {
		return Outcome{}, err
	}
	leave, err := h.enter()
	if err != nil {
		return Outcome{}, err
	}
	defer leave()
	in, err := h.pool(key).get(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer func() { go in.release() }()
	return h.call(ctx, in, key, callOptions{network: scope.Network, programs: scope.Programs, sink: w}, req)
}
