package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newSessionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "session",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc session: not implemented yet") },
	}
}
