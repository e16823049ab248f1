// Package layering states the direction dependencies may take between
// ptc's packages, and checks one import against it; its test walks the
// module and fails on any import that goes the wrong way.
//
//	cmd/…                              the CLI
//	  → front ends (serve, acp, worker, bench, any other top-level package)
//	    → harness                      the composition root
//	      → toolbox                    every built-in tool's definition
//	        → presets, ptc, sandbox/…, sdkgen
//	          → runtime/…
//	            → internal/…           small shared helpers
//
// A package may import its own layer and any layer below, except that
// sdkgen (and its subpackages) imports nothing of ours, and internal/…
// imports only internal/…. Test files are not checked: a test may build
// on a higher layer's fixtures (runtime tests use toolbox's todo_write).
package layering

import (
	"fmt"
	"strings"
)

// Module is the module path the rules speak about.
const Module = "github.com/ptc-dev/ptc"

// Layers from the bottom; a package's layer is its index.
const (
	Internal = iota
	Runtime
	Capability // presets, ptc, sandbox/…, sdkgen
	Toolbox
	Harness
	FrontEnd
	Command
)

var layerNames = []string{"internal", "runtime", "presets/ptc/sandbox/sdkgen", "toolbox", "harness", "front ends", "cmd"}

// Layer is the layer of the package at path (relative to Module, "" for
// the module root).
func Layer(path string) int {
	top, _, _ := strings.Cut(path, "/")
	switch top {
	case "internal":
		return Internal
	case "runtime":
		return Runtime
	case "presets", "ptc", "sandbox", "sdkgen":
		return Capability
	case "toolbox":
		return Toolbox
	case "harness":
		return Harness
	case "cmd":
		return Command
	}
	return FrontEnd
}

// Check returns why pkg must not import imp (both full import paths), or
// "" when it may. Imports from outside the module are always allowed.
func Check(pkg, imp string) string {
	from, ok := within(pkg)
	to, ours := within(imp)
	if !ok || !ours {
		return ""
	}
	top, _, _ := strings.Cut(from, "/")
	switch {
	case top == "sdkgen" && !strings.HasPrefix(to+"/", "sdkgen/"):
		return fmt.Sprintf("%s imports %s: sdkgen imports nothing of ours", pkg, imp)
	case Layer(from) < Layer(to):
		return fmt.Sprintf("%s imports %s: %s may not import %s (the direction is cmd → front ends → harness → toolbox → presets/ptc/sandbox/sdkgen → runtime → internal)",
			pkg, imp, layerNames[Layer(from)], layerNames[Layer(to)])
	}
	return ""
}

// within returns path relative to Module, and whether it is in it.
func within(path string) (string, bool) {
	if path == Module {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, Module+"/")
	return rel, ok
}
