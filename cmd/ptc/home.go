package main

import (
	"fmt"
	"os"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/presets"
)

// loadPresets loads the embedded presets and the user's under home
// (flag, else $PTC_HOME or ~/.ptc).
func loadPresets(homeFlag string) (*presets.Set, error) {
	home, err := harness.OpenHome(homeFlag)
	if err != nil {
		return nil, err
	}
	return home.Presets()
}

// openHome opens the ptc home of a command that uses its sessions: work
// the catalog does once (moving an old store) is announced on stderr.
func openHome(homeFlag string) (*harness.Home, error) {
	home, err := harness.OpenHome(homeFlag)
	if err != nil {
		return nil, err
	}
	home.Catalog().SetProgress(func(msg string) { fmt.Fprintln(os.Stderr, "ptc:", termsafe.String(msg)) })
	return home, nil
}
