package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the interactive session.
func newInteractiveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "ptc",
		Short: "ptc: a coding agent built around programmatic tool calling",
		RunE:  func(*cobra.Command, []string) error { return errors.New("interactive mode: not implemented yet") },
	}
}
