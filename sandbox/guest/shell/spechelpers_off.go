//go:build !ptcspec

package shell

// specCommands is empty outside the spec-compat build (see spechelpers.go).
var specCommands map[string]builtinFunc
