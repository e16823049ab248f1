package models

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// FileName is the user's table in the ptc home directory.
const FileName = "models.yaml"

// maxFileBytes bounds models.yaml: it is a short hand-written file.
const maxFileBytes = 1 << 20

// entry is one model in models.yaml. Every field is optional: for a listed
// model the given fields replace the built-in ones, for a new model the
// missing ones take the defaults of an unknown model.
type entry struct {
	Provider        *string `yaml:"provider"`
	ContextWindow   *int    `yaml:"context_window"`
	MaxOutput       *int    `yaml:"max_output"`
	Thinks          *bool   `yaml:"thinks"`
	ReasoningField  *string `yaml:"reasoning_field"`
	NoStreamOptions *bool   `yaml:"no_stream_options"`
	Price           *rates  `yaml:"price"`
	rates           `yaml:",inline"`
}

// rates are the price fields of an entry; a field not given keeps the
// model's current rate.
type rates struct {
	Input    *float64 `yaml:"input"`
	CacheHit *float64 `yaml:"cache_hit"`
	Output   *float64 `yaml:"output"`
}

type file struct {
	Models map[string]entry `yaml:"models"`
}

// LoadHome is Load of home/models.yaml.
func LoadHome(home string) (*Table, error) {
	return Load(filepath.Join(home, FileName))
}

// Load returns the built-in table with the models of the YAML file at path
// added or overriding. A missing file is no error (the built-in table
// alone); a malformed one is, naming the file and what is wrong, so a typo
// never silently prices a session wrong. The format:
//
//	models:
//	  deepseek-v4-flash:
//	    context_window: 524288       # only this field changes
//	  my-local-model:
//	    provider: openai
//	    context_window: 131072
//	    max_output: 8192
//	    thinks: true
//	    reasoning_field: reasoning   # or reasoning_content
//	    no_stream_options: true      # the server refuses stream_options
//	    price: {input: 0.20, cache_hit: 0.02, output: 0.60}
//
// (input, cache_hit and output may also stand directly under the model.)
func Load(path string) (*Table, error) {
	t := Builtin()
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, fmt.Errorf("model table %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("model table %s: %w", path, err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("model table %s is larger than %d bytes", path, maxFileBytes)
	}
	if err := t.merge(data); err != nil {
		return nil, fmt.Errorf("model table %s: %w", path, err)
	}
	return t, nil
}

func (t *Table) merge(data []byte) error {
	var doc file
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	for id, e := range doc.Models {
		id = strings.TrimSpace(id)
		if id == "" {
			return errors.New("a model has an empty id")
		}
		m, ok := t.models[id]
		if !ok {
			m = Model{ID: id, ContextWindow: DefaultContextWindow}
		}
		m, err := e.apply(m)
		if err != nil {
			return fmt.Errorf("model %q: %w", id, err)
		}
		m.Known, m.Notice = true, ""
		t.models[id] = m
	}
	return nil
}

func (e entry) apply(m Model) (Model, error) {
	if e.Provider != nil {
		m.Provider = *e.Provider
	}
	if e.ContextWindow != nil {
		if *e.ContextWindow <= 0 {
			return m, fmt.Errorf("context_window must be a positive number of tokens, not %d", *e.ContextWindow)
		}
		m.ContextWindow = *e.ContextWindow
	}
	if e.MaxOutput != nil {
		if *e.MaxOutput < 0 {
			return m, fmt.Errorf("max_output must not be negative, not %d", *e.MaxOutput)
		}
		m.MaxOutput = *e.MaxOutput
	}
	if e.Thinks != nil {
		m.Thinks = *e.Thinks
	}
	if e.NoStreamOptions != nil {
		m.NoStreamOptions = *e.NoStreamOptions
	}
	if e.ReasoningField != nil {
		switch f := *e.ReasoningField; f {
		case ReasoningContent, Reasoning, "":
			m.ReasoningField = f
		default:
			return m, fmt.Errorf("reasoning_field must be %s or %s, not %q", ReasoningContent, Reasoning, f)
		}
	}
	return e.applyPrice(m)
}

// applyPrice sets the rates of the price block, then the flat ones (which
// win); a rate not given keeps the model's current one.
func (e entry) applyPrice(m Model) (Model, error) {
	blocks := []rates{e.rates}
	if e.Price != nil {
		blocks = []rates{*e.Price, e.rates}
	}
	var p Price
	if m.Price != nil {
		p = *m.Price
	}
	set := false
	for _, r := range blocks {
		for _, f := range []struct{ v, dst *float64 }{{r.Input, &p.Input}, {r.CacheHit, &p.CacheHit}, {r.Output, &p.Output}} {
			if f.v != nil {
				*f.dst, set = *f.v, true
			}
		}
	}
	if !set {
		return m, nil
	}
	if p.Input < 0 || p.CacheHit < 0 || p.Output < 0 {
		return m, fmt.Errorf("prices must not be negative (input %v, cache_hit %v, output %v)", p.Input, p.CacheHit, p.Output)
	}
	m.Price = &p
	return m, nil
}
