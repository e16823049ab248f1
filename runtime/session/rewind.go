package session

// Event types of checkpoints and rewinds (issue 25). Names are part of
// the public format: add, never rename.
var (
	// TypeCheckpoint records what one turn changed in the workspace: for
	// every path written, its state before the turn's first write and at
	// the turn's end (see runtime/checkpoint, which keeps the bytes).
	TypeCheckpoint = eventType("checkpoint/turn")
	// TypeRewind records a rewind: the workspace (and, unless FilesOnly,
	// the conversation) put back to before turn ToTurn.
	TypeRewind = eventType("session/rewind")
)

// FileState is one path's state at a moment: Kind file (Hash the
// sha256 of its bytes, hex), dir, symlink (Target) or absent. Kept says
// the bytes are in the session's checkpoint store (a file over the size
// limit or past the session's byte cap is known by hash only).
type FileState struct {
	Kind   string `json:"kind"`
	Mode   uint32 `json:"mode,omitempty"`
	Size   int64  `json:"size,omitempty"`
	Hash   string `json:"hash,omitempty"`
	Target string `json:"target,omitempty"`
	Kept   bool   `json:"kept,omitempty"`
}

// The kinds of a FileState.
const (
	KindFile    = "file"
	KindDir     = "dir"
	KindSymlink = "symlink"
	KindAbsent  = "absent"
)

// FileChange is one path a turn (or a rewind) changed: its state before
// and after. Path is workspace-relative with forward slashes.
type FileChange struct {
	Path   string    `json:"path"`
	Before FileState `json:"before"`
	After  FileState `json:"after"`
}

// Checkpoint is the data of checkpoint/turn. Partial says some writes
// could not be kept (the session's cap on kept bytes was reached); those
// paths have Before.Kept false.
type Checkpoint struct {
	Turn    int          `json:"turn"`
	Files   []FileChange `json:"files"`
	Partial bool         `json:"partial,omitempty"`
}

// Rewind is the data of session/rewind. From is the seq of turn ToTurn's
// turn/start: unless FilesOnly, every surface item from that seq up to
// the rewind leaves the model's view (DeriveMessages honours it). Files
// are the paths put back, with their states before and after the rewind,
// so a later rewind knows what ptc last wrote.
type Rewind struct {
	ToTurn    int          `json:"toTurn"`
	From      int64        `json:"from"`
	FilesOnly bool         `json:"filesOnly,omitempty"`
	Files     []FileChange `json:"files,omitempty"`
}
