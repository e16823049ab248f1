package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// TrustFile is where approvals of project hooks are kept, in $PTC_HOME.
const TrustFile = "hooks-trust.json"

// Trust remembers which project hooks the user allowed, per workspace
// and definition (Hook.Fingerprint).
type Trust struct {
	path string
	mu   sync.Mutex
}

type trustEntry struct {
	Workspace   string `json:"workspace"`
	Fingerprint string `json:"fingerprint"`
	Hook        string `json:"hook"`
	Command     string `json:"command"`
}

// OpenTrust returns the trust store of a ptc home.
func OpenTrust(home string) *Trust { return &Trust{path: filepath.Join(home, TrustFile)} }

func (t *Trust) load() ([]trustEntry, error) {
	data, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the hooks trust file: %w", err)
	}
	var doc struct {
		Approved []trustEntry `json:"approved"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v); remove it to approve project hooks again", t.path, err)
	}
	return doc.Approved, nil
}

// Approved reports whether h was approved in workspace as it is now.
func (t *Trust) Approved(workspace string, h Hook) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	es, err := t.load()
	fp := h.Fingerprint()
	return slices.ContainsFunc(es, func(e trustEntry) bool { return e.Workspace == workspace && e.Fingerprint == fp }), err
}

// Approve records that h may run in workspace. The file is replaced
// atomically.
func (t *Trust) Approve(workspace string, h Hook) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	es, err := t.load()
	if err != nil {
		return err
	}
	fp := h.Fingerprint()
	if !slices.ContainsFunc(es, func(e trustEntry) bool { return e.Workspace == workspace && e.Fingerprint == fp }) {
		es = append(es, trustEntry{workspace, fp, h.Name(), h.Command})
	}
	data, err := json.MarshalIndent(struct {
		Approved []trustEntry `json:"approved"`
	}{es}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o700); err != nil {
		return fmt.Errorf("cannot write the hooks trust file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.path), ".hooks-trust-*")
	if err != nil {
		return fmt.Errorf("cannot write the hooks trust file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), t.path)
	}
	if werr != nil {
		return fmt.Errorf("cannot write the hooks trust file: %w", werr)
	}
	return nil
}
