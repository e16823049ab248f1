package session

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// MemStore is an in-memory Store for tests and throwaway sessions. Nothing
// survives the process; durable and buffered appends behave the same.
type MemStore struct {
	mu       sync.RWMutex
	closed   bool
	sessions map[string]*memSession
}

type memSession struct {
	header    Header
	events    []Event
	updatedAt int64
}

// NewMemStore returns an empty in-memory store.
func NewMemStore() *MemStore {
	return &MemStore{sessions: make(map[string]*memSession)}
}

// Create implements Store.
func (m *MemStore) Create(ctx context.Context, h Header) error {
	if err := CheckHeader(h); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if _, ok := m.sessions[h.ID]; ok {
		return fmt.Errorf("create session %s: %w", h.ID, ErrExists)
	}
	m.sessions[h.ID] = &memSession{header: h, updatedAt: h.CreatedAt}
	return nil
}

// Header implements Store.
func (m *MemStore) Header(ctx context.Context, id string) (Header, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, err := m.get(id)
	if err != nil {
		return Header{}, err
	}
	return s.header, nil
}

// Append implements Store. The events are copied, so callers may reuse
// their slice; Data bytes are shared and must not be modified.
func (m *MemStore) Append(ctx context.Context, id string, events []Event, durable bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.get(id)
	if err != nil {
		return err
	}
	if err := CheckBatch(id, int64(len(s.events)), events); err != nil {
		return err
	}
	s.events = append(s.events, events...)
	for _, e := range events {
		s.updatedAt = max(s.updatedAt, e.Time)
	}
	return nil
}

// Load implements Store. The returned slice is the caller's own.
func (m *MemStore) Load(ctx context.Context, id string) ([]Event, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, err := m.get(id)
	if err != nil {
		return nil, err
	}
	return append([]Event(nil), s.events...), nil
}

// List implements Store.
func (m *MemStore) List(ctx context.Context, opts ListOptions) ([]Summary, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Summary
	for _, s := range m.sessions {
		if opts.Cwd != "" && s.header.Workspace != opts.Cwd {
			continue
		}
		out = append(out, Summary{Header: s.header, UpdatedAt: s.updatedAt, Events: int64(len(s.events))})
	}
	sort.Slice(out, func(i, j int) bool { return summaryBefore(out[i], out[j]) })
	if opts.Limit > 0 && len(out) > opts.Limit {
		out = out[:opts.Limit]
	}
	return out, nil
}

// Sync implements Store; there is nothing to flush.
func (m *MemStore) Sync(ctx context.Context) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return ErrClosed
	}
	return nil
}

// Close implements Store. Later calls fail with ErrClosed.
func (m *MemStore) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}

// Truncate implements Truncater.
func (m *MemStore) Truncate(ctx context.Context, id string, n int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.get(id)
	if err != nil {
		return err
	}
	if n < 0 || n > int64(len(s.events)) {
		return fmt.Errorf("truncate session %s to %d events: it has %d", id, n, len(s.events))
	}
	s.events = s.events[:n:n]
	return nil
}

func (m *MemStore) get(id string) (*memSession, error) {
	if m.closed {
		return nil, ErrClosed
	}
	s, ok := m.sessions[id]
	if !ok {
		return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return s, nil
}

// summaryBefore orders a listing: most recently updated first, ties broken
// by id ascending (the order of the Badger index keys).
func summaryBefore(a, b Summary) bool {
	if a.UpdatedAt != b.UpdatedAt {
		return a.UpdatedAt > b.UpdatedAt
	}
	return a.Header.ID < b.Header.ID
}
