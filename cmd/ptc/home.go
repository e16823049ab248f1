package main

import (
	"github.com/ptc-dev/ptc/harness"
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
