package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newToolsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "tools",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc tools: not implemented yet") },
	}
}
