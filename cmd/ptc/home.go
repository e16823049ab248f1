package main

import (
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/session"
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

// openStore opens the session store of home; readOnly is for listing and
// showing sessions.
func openStore(homeFlag string, readOnly bool) (*session.BadgerStore, error) {
	home, err := harness.OpenHome(homeFlag)
	if err != nil {
		return nil, err
	}
	return session.OpenBadger(session.StoreDir(home.Dir()), session.BadgerOptions{ReadOnly: readOnly})
}
