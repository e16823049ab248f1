package session

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"
)

// Fork starts session newID (NewID(now, …) when empty) as a copy of srcID
// through the turn/end of turn uptoTurn, or through the last completed
// turn when uptoTurn is 0. Copied events keep their seq, type, time and
// data; a session/end-seed follows them. The new header names the parent,
// the last copied seq (ParentSeq, -1 when nothing was copied) and
// Depth+1. The fork is durable when Fork returns.
func Fork(ctx context.Context, store Store, srcID string, uptoTurn int, newID string, now time.Time) (Header, error) {
	src, err := LoadSession(ctx, store, srcID)
	if err != nil {
		return Header{}, err
	}
	cut, err := forkCut(src, uptoTurn)
	if err != nil {
		return Header{}, err
	}
	if newID == "" {
		newID = NewID(now, rand.Reader)
	}
	parentSeq := int64(cut)
	h := Header{
		ID: newID, CreatedAt: now.UnixMilli(), Settings: src.Header.Settings,
		Parent: srcID, ParentSeq: parentSeq, Depth: src.Header.Depth + 1,
		Version: FormatVersion,
	}
	seed, err := json.Marshal(EndSeed{Parent: srcID, ParentSeq: parentSeq})
	if err != nil {
		return Header{}, err
	}
	events := make([]Event, 0, cut+2)
	events = append(events, src.Events[:cut+1]...)
	events = append(events, Event{Seq: int64(cut + 1), Type: TypeEndSeed, Time: now.UnixMilli(), Data: seed})
	if err := store.Create(ctx, h); err != nil {
		return Header{}, err
	}
	if err := store.Append(ctx, newID, events, true); err != nil {
		return Header{}, fmt.Errorf("fork %s into %s: %w", srcID, newID, err)
	}
	return h, nil
}

// forkCut is the index of the last event to copy (-1 for none).
func forkCut(src Loaded, uptoTurn int) (int, error) {
	cut := -1
	for i, e := range src.Events {
		if e.Type != TypeTurnEnd {
			continue
		}
		var d TurnEnd
		if err := decodeFor(e, &d); err != nil {
			return 0, fmt.Errorf("session %s: %w", src.Header.ID, err)
		}
		if uptoTurn == 0 {
			cut = i
		} else if d.Turn == uptoTurn {
			return i, nil
		}
	}
	if uptoTurn != 0 {
		return 0, fmt.Errorf("session %s has no completed turn %d to fork from", src.Header.ID, uptoTurn)
	}
	return cut, nil
}
