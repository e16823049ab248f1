// Package trustfile keeps a list of the user's approvals as a JSON file in
// $PTC_HOME ({"approved": [...]}), read whole and replaced atomically.
//
// Project MCP servers and project hooks are both repository-controlled
// code that runs only once the user approved it, remembered per workspace
// and definition; each keeps its own entries and rules, and this package
// is the one way they are stored, so a torn or hand-broken file reads the
// same way for both: a clear error naming the file, never a silent
// approval.
package trustfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// File is one approvals file holding entries of type E. Its methods are
// safe for concurrent use within a process; across processes the last
// writer wins whole (a rename), never a mix.
type File[E any] struct {
	path string
	what string // "project hooks", "project servers": for messages
	mu   sync.Mutex
}

// Open names the file at path; what says whose approvals it holds, for
// error messages. Nothing is read until Load or Update.
func Open[E any](path, what string) *File[E] { return &File[E]{path: path, what: what} }

// Path is where the file lives.
func (f *File[E]) Path() string { return f.path }

type doc[E any] struct {
	Approved []E `json:"approved"`
}

// Load returns the entries; a missing file has none.
func (f *File[E]) Load() ([]E, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.load()
}

func (f *File[E]) load() ([]E, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the trust file of %s: %w", f.what, err)
	}
	var d doc[E]
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v); remove it to approve %s again", f.path, err, f.what)
	}
	return d.Approved, nil
}

// Update replaces the entries with what change makes of them, under the
// file's lock, writing a temporary file beside it and renaming it over
// (mode 0600, directory 0700).
func (f *File[E]) Update(change func([]E) []E) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.load()
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(doc[E]{change(entries)}, "", "  ")
	if err != nil {
		return err
	}
	if err := f.replace(append(data, '\n')); err != nil {
		return fmt.Errorf("cannot write the trust file of %s: %w", f.what, err)
	}
	return nil
}

func (f *File[E]) replace(data []byte) error {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(f.path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	return os.Rename(tmp.Name(), f.path)
}
