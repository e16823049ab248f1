package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newShCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sh COMMAND",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc sh: not implemented yet") },
	}
}
