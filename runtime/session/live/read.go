package live

import (
	"context"
	"errors"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Read returns session id of cat without taking it over: from its store
// (session.Catalog.Load), or, while a process has it open, from that
// owner's socket. Warnings are the load's (a torn tail dropped).
func Read(ctx context.Context, cat *session.Catalog, id string) (h session.Header, events []session.Event, warnings []string, err error) {
	ld, err := cat.Load(ctx, id)
	if errors.Is(err, session.ErrLocked) {
		// Its owner is running it: ask the owner.
		st, evs, lerr := Show(ctx, cat.SessionDir(id))
		if lerr == nil {
			return st.Header, evs, nil, nil
		}
	}
	if err != nil {
		return session.Header{}, nil, nil, err
	}
	return ld.Header, ld.Events, ld.Warnings, nil
}
