package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newSessionsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sessions",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc sessions: not implemented yet") },
	}
}
