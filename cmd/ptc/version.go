package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// versionText says which ptc this is: the module version and the VCS
// revision it was built from (runtime/debug.ReadBuildInfo), so a bug
// report can name the exact build. A binary built without VCS stamping
// (-buildvcs=false, a tree that is not a git checkout) says so.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "ptc (no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	var vcs string
	switch {
	case rev == "":
		vcs = "revision unknown: built without VCS stamping (-buildvcs=false, or not from a git checkout)"
	default:
		if len(rev) > 12 {
			rev = rev[:12]
		}
		vcs = "revision " + rev
		if t := settings["vcs.time"]; t != "" {
			vcs += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			vcs += ", with uncommitted changes"
		}
	}
	goVersion := strings.TrimPrefix(info.GoVersion, "go")
	return fmt.Sprintf("ptc %s, %s\nbuilt with Go %s for %s/%s", version, vcs, goVersion, runtime.GOOS, runtime.GOARCH)
}

func buildVersion() string { return versionText(debug.ReadBuildInfo()) }

// newVersionCmd is `ptc version` (also `ptc --version`).
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print ptc's version and the revision it was built from",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(c.OutOrStdout(), buildVersion())
			return err
		},
	}
}
