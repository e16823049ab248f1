// Package settingsfile reads ptc's settings.json files: the user's
// ($PTC_HOME/settings.json) and a project's (.ptc/settings.json), in the
// shape Claude Code users know. Each consumer decodes its own section
// ("web" by runtime/web's users, "hooks" by runtime/hooks); keys no one
// reads are left alone, so a file shared with another tool loads.
package settingsfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Name is the settings file's name, in the home and in a project's .ptc.
const Name = "settings.json"

// MaxSize is the largest settings file read.
const MaxSize = 1 << 20

// File is one settings file: its path and its top-level sections.
type File struct {
	Path     string
	Sections map[string]json.RawMessage
}

// User is the user's settings file of home.
func User(home string) string { return filepath.Join(home, Name) }

// Project is the project's settings file of a workspace.
func Project(workspace string) string { return filepath.Join(workspace, ".ptc", Name) }

// Read reads the settings file at path. A missing file is an empty File;
// a directory, a special file, one over MaxSize or one that is not a JSON
// object is an error naming the path.
func Read(path string) (File, error) {
	f := File{Path: path, Sections: map[string]json.RawMessage{}}
	fh, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return f, fmt.Errorf("%s: not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(fh, MaxSize+1))
	if err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	if len(b) > MaxSize {
		return f, fmt.Errorf("%s: larger than %d bytes", path, MaxSize)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(b, &f.Sections); err != nil {
		return f, fmt.Errorf("%s: not a JSON object: %v", path, err)
	}
	return f, nil
}

// Decode decodes the section called name into v, refusing unknown
// fields (a typo must not silently change nothing). An absent section
// leaves v as it is and returns false.
func (f File) Decode(name string, v any) (bool, error) {
	raw, ok := f.Sections[name]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return true, fmt.Errorf("%s: %q: %v", f.Path, name, err)
	}
	return true, nil
}
