package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// Source says where a server was configured. Servers of a project file
// start only after the user approved them (Trust): a repository must not
// be able to start programs on checkout.
type Source string

// Sources, in the order their files are read; a later definition of a
// server name replaces an earlier one.
const (
	SourceUser    Source = "user"    // $PTC_HOME/mcp.json
	SourceProject Source = "project" // .mcp.json in the workspace
	SourceFlag    Source = "flag"    // --mcp-config FILE
)

// ProjectFile and UserFile are the configuration file names.
const (
	ProjectFile = ".mcp.json"
	UserFile    = "mcp.json"
)

// DefaultTimeout bounds one tool call of a server that sets no timeout.
const DefaultTimeout = 60 * time.Second

// Approval values of a server or tool: auto runs calls without asking;
// ask puts every call through the approval step (policy ask: the user;
// never: denied).
const (
	ApprovalAuto = "auto"
	ApprovalAsk  = "ask"
)

// Server is one configured MCP server, in the format other clients use:
// a stdio server is a command with args and env, an HTTP server a URL with
// headers. Values may use ${VAR} and ${VAR:-default}, expanded from the
// environment when the server starts. It is not changed once loaded.
type Server struct {
	Name   string `json:"-"`
	Source Source `json:"-"`
	File   string `json:"-"` // the file that defined it
	// Type is "stdio", "http" (streamable HTTP) or "sse"; empty means
	// stdio when Command is set, else http.
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Cwd is the working directory of a stdio server; relative paths are
	// resolved against the file's directory, empty means the workspace.
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Timeout bounds one call, in seconds; 0 means DefaultTimeout.
	Timeout float64 `json:"timeout,omitempty"`
	// Approval applies to every tool of the server (default auto);
	// ToolApproval overrides it per tool (the server's name for it).
	Approval     string            `json:"approval,omitempty"`
	ToolApproval map[string]string `json:"toolApproval,omitempty"`
	Disabled     bool              `json:"disabled,omitempty"`
	// Sandbox is how a project's stdio server runs: "" or "read-only"
	// confines it like a host program (bubblewrap, the workspace
	// read-only, a HOME of its own, only the variables Env lists);
	// "unconfined" runs it as the user's own program with ptc's
	// environment, as user and flag servers always run.
	Sandbox string `json:"sandbox,omitempty"`
	// Network lets a confined server reach the network.
	Network bool `json:"network,omitempty"`

	// workspace and admitted are set by Admit for a project server: the
	// fingerprint it was admitted with, checked before every start.
	workspace, admitted string
}

// Sandbox values.
const (
	SandboxReadOnly   = "read-only"
	SandboxUnconfined = "unconfined"
)

// Confined reports whether the server runs under the sandbox: a
// project's stdio server that did not ask to run unconfined.
func (s Server) Confined() bool {
	return s.Source == SourceProject && s.Transport() == "stdio" && s.Sandbox != SandboxUnconfined
}

// Transport is "stdio", "http" or "sse".
func (s Server) Transport() string {
	switch {
	case s.Type == "streamable-http" || s.Type == "streamableHttp":
		return "http"
	case s.Type != "":
		return s.Type
	case s.Command != "":
		return "stdio"
	}
	return "http"
}

// CallTimeout is the bound of one call.
func (s Server) CallTimeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultTimeout
	}
	return time.Duration(s.Timeout * float64(time.Second))
}

// Describe is a one-line summary for notices and prompts: the command
// line or the URL (header values are never shown).
func (s Server) Describe() string {
	if s.Transport() == "stdio" {
		return strings.Join(append([]string{s.Command}, s.Args...), " ")
	}
	return s.URL
}

// ApprovalText is what the user approves for a project server: the whole
// definition as written (every field, env and headers too), where it
// runs, and the workspace files its command line names with their
// hashes. It is JSON, indented, every value as in the file; the caller
// shows it through a terminal sanitiser.
func (s Server) ApprovalText(workspace string) string {
	def := map[string]any{}
	raw, _ := json.Marshal(s)
	_ = json.Unmarshal(raw, &def)
	doc := map[string]any{"name": s.Name, "file": s.File, "definition": def, "runs": s.runsAs()}
	if pins := s.Pin(workspace, nil); len(pins) > 0 {
		doc["files"] = pins
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return string(b)
}

// runsAs says where the server runs, for the approval.
func (s Server) runsAs() string {
	switch {
	case s.Transport() != "stdio":
		return "ptc connects to the url, sending the headers shown"
	case !s.Confined():
		return "UNCONFINED: as your own program, with your environment and rights (API keys included)"
	case s.Network:
		return "confined: bubblewrap, the workspace read-only, a HOME of its own, only the env shown; NETWORK ON"
	}
	return "confined: bubblewrap, the workspace read-only, a HOME of its own, only the env shown, no network"
}

// printable cuts s to about max bytes (at a character boundary) with
// every terminal control shown escaped (termsafe): names and texts from a
// server or a project file must not reach a terminal raw.
func printable(s string, max int) string { return termsafe.Clip(s, max) }

// fingerprintVersion changes when what a fingerprint covers changes
// (approvals made before then ask again).
const fingerprintVersion = 2

// Fingerprint identifies the server's definition as written (before
// expansion) together with the workspace files its command line names
// (Pin): an approval holds only while all of it is unchanged.
func (s Server) Fingerprint(workspace string) string {
	b, _ := json.Marshal(struct {
		Version int
		Name    string
		Def     Server
		Files   []PinnedFile
	}{fingerprintVersion, s.Name, s, s.Pin(workspace, nil)})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ParseFile reads one configuration file ({"mcpServers": {name: def}}).
// Errors name the file and the server.
func ParseFile(data []byte, path string, src Source) ([]Server, error) {
	var doc struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: not a valid MCP configuration (want {\"mcpServers\": {...}}): %v", path, err)
	}
	names := make([]string, 0, len(doc.Servers))
	for n := range doc.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Server
	for _, n := range names {
		var s Server
		d := json.NewDecoder(bytes.NewReader(doc.Servers[n]))
		if err := d.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s: server %q: %v", path, n, err)
		}
		s.Name, s.Source, s.File = n, src, path
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("%s: server %q: %v", path, n, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func (s Server) check() error {
	if strings.TrimSpace(s.Name) == "" || len(s.Name) > 100 {
		return errors.New("a server needs a name of 1 to 100 characters")
	}
	switch s.Transport() {
	case "stdio":
		if s.Command == "" {
			return errors.New("a stdio server needs a command")
		}
	case "http", "sse":
		if s.URL == "" {
			return errors.New("an HTTP server needs a url")
		}
		if u, err := url.Parse(s.URL); err == nil && !strings.Contains(s.URL, "${") && u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("url %q must be http or https", s.URL)
		}
	default:
		return fmt.Errorf("unknown type %q: use stdio, http or sse", s.Type)
	}
	for _, a := range append([]string{s.Approval}, mapValues(s.ToolApproval)...) {
		if a != "" && a != ApprovalAuto && a != ApprovalAsk {
			return fmt.Errorf("approval %q: use %s or %s", a, ApprovalAuto, ApprovalAsk)
		}
	}
	if s.Timeout < 0 {
		return errors.New("timeout must not be negative")
	}
	if s.Sandbox != "" && s.Sandbox != SandboxReadOnly && s.Sandbox != SandboxUnconfined {
		return fmt.Errorf("sandbox %q: use %s or %s", s.Sandbox, SandboxReadOnly, SandboxUnconfined)
	}
	return nil
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Files lists the configuration files of a run in reading order: the
// user file, the workspace's project file, then the flag files.
type Files struct {
	Home      string   // $PTC_HOME; "" skips the user file
	Workspace string   // "" skips the project file
	Flags     []string // --mcp-config files; each must exist
}

// Load reads the files and returns the enabled servers sorted by name. A
// missing user or project file is no error; a missing flag file is.
func Load(f Files) ([]Server, error) {
	type file struct {
		path     string
		src      Source
		required bool
	}
	var files []file
	if f.Home != "" {
		files = append(files, file{filepath.Join(f.Home, UserFile), SourceUser, false})
	}
	if f.Workspace != "" {
		files = append(files, file{filepath.Join(f.Workspace, ProjectFile), SourceProject, false})
	}
	for _, p := range f.Flags {
		files = append(files, file{p, SourceFlag, true})
	}
	byName := map[string]Server{}
	for _, fl := range files {
		data, err := os.ReadFile(fl.path)
		if errors.Is(err, fs.ErrNotExist) && !fl.required {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read MCP configuration: %w", err)
		}
		servers, err := ParseFile(data, fl.path, fl.src)
		if err != nil {
			return nil, err
		}
		for _, s := range servers {
			byName[s.Name] = s
		}
	}
	var out []Server
	for _, s := range byName {
		if !s.Disabled {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// expanded returns the server with ${VAR} and ${VAR:-default} replaced in
// its command, args, env values, cwd, url and header values, and cwd made
// absolute (relative to the file's directory; empty is workspace).
func (s Server) expanded(getenv func(string) string, workspace string) Server {
	x := func(v string) string { return expand(v, getenv) }
	s.Command, s.Cwd, s.URL = x(s.Command), x(s.Cwd), x(s.URL)
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = x(a)
	}
	s.Args = args
	s.Env, s.Headers = expandMap(s.Env, x), expandMap(s.Headers, x)
	switch {
	case s.Cwd == "":
		s.Cwd = workspace
	case !filepath.IsAbs(s.Cwd) && s.File != "":
		s.Cwd = filepath.Join(filepath.Dir(s.File), s.Cwd)
	}
	return s
}

func expandMap(m map[string]string, x func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = x(v)
	}
	return out
}

// expand replaces ${NAME} and ${NAME:-default}; any other $ is kept.
func expand(s string, getenv func(string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		name, dflt, hasDefault := strings.Cut(s[i+2:i+j], ":-")
		v := getenv(name)
		if v == "" && hasDefault {
			v = dflt
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

func getenv(k string) string { return os.Getenv(k) }
