package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newPresetsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "presets",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc presets: not implemented yet") },
	}
}
