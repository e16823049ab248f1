package hooks

import (
	"path/filepath"
	"slices"

	"github.com/ptc-dev/ptc/internal/trustfile"
)

// TrustFile is where approvals of project hooks are kept, in $PTC_HOME.
const TrustFile = "hooks-trust.json"

// Trust remembers which project hooks the user allowed, per workspace
// and definition (Hook.Fingerprint).
type Trust struct{ file *trustfile.File[trustEntry] }

type trustEntry struct {
	Workspace   string `json:"workspace"`
	Fingerprint string `json:"fingerprint"`
	Hook        string `json:"hook"`
	Command     string `json:"command"`
}

// OpenTrust returns the trust store of a ptc home.
func OpenTrust(home string) *Trust {
	return &Trust{trustfile.Open[trustEntry](filepath.Join(home, TrustFile), "project hooks")}
}

// Approved reports whether h was approved in workspace as it is now.
func (t *Trust) Approved(workspace string, h Hook) (bool, error) {
	es, err := t.file.Load()
	return slices.ContainsFunc(es, matches(workspace, h.Fingerprint())), err
}

// Approve records that h may run in workspace. The file is replaced
// atomically.
func (t *Trust) Approve(workspace string, h Hook) error {
	fp := h.Fingerprint()
	return t.file.Update(func(es []trustEntry) []trustEntry {
		if !slices.ContainsFunc(es, matches(workspace, fp)) {
			es = append(es, trustEntry{workspace, fp, h.Name(), h.Command})
		}
		return es
	})
}

func matches(workspace, fp string) func(trustEntry) bool {
	return func(e trustEntry) bool { return e.Workspace == workspace && e.Fingerprint == fp }
}
