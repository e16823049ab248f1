// Package proto is the wire contract between the sandbox host (package
// sandbox) and the guest program compiled to GOOS=wasip1
// (sandbox/guest). It holds plain data types only and imports nothing of
// ours, so both sides can import it.
//
// One call = one Request. The host instantiates (or takes from the pool) a
// guest instance whose stdin yields the JSON encoding of a Request, then
// calls the guest's exported function ExportRun. The guest reads stdin to
// EOF, decodes the Request and performs it:
//
//   - OpShell: runs Request.Command with the shell interpreter in
//     Request.Cwd with exactly Request.Env; the command's own stdin is
//     Request.Stdin; its stdout and stderr go to the guest's fd 1 and fd 2.
//     ExportRun returns the command's exit status.
//   - every file op (OpRead, OpWrite, OpEdit, OpStat):
//     decodes Request.File, performs the operation through the guest's
//     filesystem (the workspace mount), writes one JSON FileResponse to
//     fd 1 and returns 0. A failed operation is a FileResponse with Error
//     set, not a non-zero return.
//
// OpGlob and OpGrep are not guest operations: the host performs them
// (sandbox.Host.Search) over the same confining filesystems, natively.
//
// A non-zero return from a file op, or a trap, means the guest itself broke.
// With Persistent set, an OpShell keeps interpreter state (cwd, variables,
// functions) in the instance for the next OpShell on the same instance.
package proto

// ExportRun is the name of the guest's exported entry point
// (//go:wasmexport ptc_run), signature () -> i32.
const ExportRun = "ptc_run"

// ExportReset is the guest's optional export (//go:wasmexport ptc_reset),
// signature () -> i32: it puts back what one command may change in the
// guest process outside its interpreter (the working directory) and
// returns how many goroutines are alive. The host calls it after a
// one-off command and gives the instance another command only when the
// count is what it was after warm-up: a background job still running
// (`sleep 9 &`) would otherwise go on inside the next command. A guest
// without it is never reused.
const ExportReset = "ptc_reset"

// Operations.
const (
	OpShell = "sh"
	OpRead  = "read"
	OpWrite = "write"
	OpEdit  = "edit"
	OpGlob  = "glob"
	OpGrep  = "grep"
	OpStat  = "stat"
)

// Request is one unit of work for the guest.
type Request struct {
	Op         string            `json:"op"`
	Command    string            `json:"command,omitempty"`
	Cwd        string            `json:"cwd,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	Stdin      string            `json:"stdin,omitempty"`
	Persistent bool              `json:"persistent,omitempty"`
	File       *FileRequest      `json:"file,omitempty"`
}

// FileRequest carries the arguments of a file op. Paths are absolute guest
// paths (the workspace appears at its host path).
type FileRequest struct {
	Path string `json:"path"`
	// read: 1-based first line and max lines (0 = defaults 1 and 2000),
	// MaxBytes caps the returned text (0 = 50 000).
	Offset   int `json:"offset,omitempty"`
	Limit    int `json:"limit,omitempty"`
	MaxBytes int `json:"maxBytes,omitempty"`
	// write: the whole new content.
	Content string `json:"content,omitempty"`
	// edit: exact replacement; unique match required unless ReplaceAll.
	OldString  string `json:"oldString,omitempty"`
	NewString  string `json:"newString,omitempty"`
	ReplaceAll bool   `json:"replaceAll,omitempty"`
	// write/edit: when set, the file's current SHA-256 (hex) must equal it,
	// else the op fails with ErrStale ("" = file must not exist for write
	// when ExpectAbsent is set).
	ExpectSHA256 string `json:"expectSha256,omitempty"`
	ExpectAbsent bool   `json:"expectAbsent,omitempty"`
	// glob/grep: Pattern is a glob (with **) or an RE2 regex; Include
	// filters grep by file glob; MaxResults caps matches (0 = 1000).
	Pattern    string `json:"pattern,omitempty"`
	Include    string `json:"include,omitempty"`
	IgnoreCase bool   `json:"ignoreCase,omitempty"`
	MaxResults int    `json:"maxResults,omitempty"`
}

// FileResponse is the guest's answer to a file op.
type FileResponse struct {
	Error     *FileError `json:"error,omitempty"`
	Stat      *Stat      `json:"stat,omitempty"`
	Lines     []Line     `json:"lines,omitempty"`      // read: the selected lines
	TotalLine int        `json:"totalLines,omitempty"` // read: lines in the file
	Truncated bool       `json:"truncated,omitempty"`  // read/glob/grep: cap reached
	Matches   []Match    `json:"matches,omitempty"`    // grep
	Paths     []Stat     `json:"paths,omitempty"`      // glob, newest first
	Total     int        `json:"total,omitempty"`      // glob/grep: count before capping
	Replaced  int        `json:"replaced,omitempty"`   // edit
}

// Line is one numbered line of a read.
type Line struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// Match is one grep hit.
type Match struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Stat describes a file. SHA256 is set by read, write, edit and stat of a
// regular file, so the host can detect files changed since they were read.
type Stat struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"modTime"` // Unix nanoseconds
	IsDir   bool   `json:"isDir,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
}

// FileError is a failed file op. Code is one of the Err* constants.
type FileError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Count   int    `json:"count,omitempty"` // edit: matches found when not unique
}

// File op error codes.
const (
	ErrNotFound   = "not-found"
	ErrIsDir      = "is-dir"
	ErrBinary     = "binary"
	ErrStale      = "stale"
	ErrNoMatch    = "no-match"
	ErrNotUnique  = "not-unique"
	ErrPermission = "permission"
	ErrInvalid    = "invalid"
	ErrIO         = "io"
	ErrExists     = "exists"
	ErrQuota      = "quota"
	ErrNotRegular = "not-regular"
)
