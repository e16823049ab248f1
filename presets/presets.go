package presets

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/tools"
)

//go:embed builtin/*.yaml
var builtinFS embed.FS

// DefaultID is the preset used when none is named.
const DefaultID = "ptc"

// Sandbox modes a preset may choose as its default.
var sandboxModes = []string{"read-only", "workspace-write", "git-write", "danger-full-access"}

// Variables that persona and section text may use.
var Variables = []string{"cwd", "date", "model", "os", "preset", "workspace"}

// Preset is one validated preset. Source says where it was loaded from
// ("embedded:ptc.yaml" or a file path).
type Preset struct {
	ID           string             `yaml:"id" json:"id"`
	Description  string             `yaml:"description" json:"description"`
	Persona      string             `yaml:"persona" json:"persona"`
	Sections     []Section          `yaml:"sections" json:"sections,omitempty"`
	Tools        []string           `yaml:"tools" json:"tools"`
	Presentation tools.Presentation `yaml:"presentation" json:"presentation"`
	Snapshots    bool               `yaml:"snapshots" json:"snapshots"`
	Sandbox      string             `yaml:"sandbox" json:"sandbox"`
	// HostPrograms are the host programs the sandboxed shell may run
	// (under bubblewrap); absent means the default toolchains
	// (sandbox/hostexec.DefaultPrograms), an empty list none.
	HostPrograms []string `yaml:"host_programs" json:"hostPrograms,omitempty"`
	// Network lets those host programs reach the network.
	Network bool `yaml:"network" json:"network,omitempty"`
	// Terminals adds the terminal tools (terminal_open, terminal_send,
	// terminal_read, terminal_signal, terminal_list, terminal_close):
	// confined host programs on pseudo-terminals.
	Terminals bool `yaml:"terminals" json:"terminals,omitempty"`
	// WebFetch adds web_fetch (off by default: a fetched page is text
	// the model did not choose to trust; --web-fetch also adds it).
	WebFetch bool `yaml:"web_fetch" json:"webFetch,omitempty"`
	MaxSteps int  `yaml:"max_steps" json:"maxSteps"`
	// Compact lets long sessions prune old tool results and compact
	// automatically (default true; runtime/compact).
	Compact bool `yaml:"compact" json:"compact"`
	// Title has the model title new sessions after their first turn
	// (default true; runtime/title).
	Title bool `yaml:"title" json:"title"`
	// Plan starts new sessions in plan mode (runtime/plan); the preset
	// must then list exit_plan_mode, the way out.
	Plan   bool   `yaml:"plan" json:"plan,omitempty"`
	Source string `yaml:"-" json:"source"`
}

// Section is an extra system-prompt section (DESIGN.md §6 order bands).
type Section struct {
	Name  string `yaml:"name" json:"name"`
	Order int    `yaml:"order" json:"order"`
	Text  string `yaml:"text" json:"text"`
}

// PersonaSection is the name the persona takes among the prompt sections.
const PersonaSection = "persona"

// PromptSections returns the persona (order prompt.OrderPersona) followed
// by the extra sections, ready for prompt.Render.
func (p *Preset) PromptSections() []prompt.Section {
	out := []prompt.Section{{Name: PersonaSection, Order: prompt.OrderPersona, Text: p.Persona}}
	for _, s := range p.Sections {
		out = append(out, prompt.Section{Name: s.Name, Order: s.Order, Text: s.Text})
	}
	return out
}

// Set is the loaded presets by id.
type Set struct {
	byID map[string]*Preset
}

// Load reads the embedded presets and then <home>/presets/*.yaml (and
// .yml), a user preset replacing an embedded one with the same id. home ""
// loads only the embedded ones. knownTools lists the tool names this build
// can construct; nil skips that check. Any invalid file is an error naming
// it.
func Load(home string, knownTools []string) (*Set, error) {
	s := &Set{byID: map[string]*Preset{}}
	entries, err := builtinFS.ReadDir("builtin")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		data, err := builtinFS.ReadFile("builtin/" + e.Name())
		if err != nil {
			return nil, err
		}
		p, err := Parse("embedded:"+e.Name(), data, knownTools)
		if err != nil {
			return nil, err
		}
		s.byID[p.ID] = p
	}
	if home == "" {
		return s, nil
	}
	var files []string
	for _, pat := range []string{"*.yaml", "*.yml"} {
		m, err := filepath.Glob(filepath.Join(home, "presets", pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("cannot read preset file: %w", err)
		}
		p, err := Parse(f, data, knownTools)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[p.ID]; dup {
			return nil, fmt.Errorf("%s: id: preset %q is also defined in %s; give one of them another id", f, p.ID, prev)
		}
		seen[p.ID] = f
		s.byID[p.ID] = p
	}
	return s, nil
}

// Get returns the preset with that id ("" means DefaultID).
func (s *Set) Get(id string) (*Preset, error) {
	if id == "" {
		id = DefaultID
	}
	if p, ok := s.byID[id]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("unknown preset %q; available presets: %s (see `ptc presets`)", id, strings.Join(s.IDs(), ", "))
}

// IDs returns the preset ids, sorted.
func (s *Set) IDs() []string {
	ids := make([]string, 0, len(s.byID))
	for id := range s.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// List returns the presets sorted by id.
func (s *Set) List() []*Preset {
	var out []*Preset
	for _, id := range s.IDs() {
		out = append(out, s.byID[id])
	}
	return out
}
