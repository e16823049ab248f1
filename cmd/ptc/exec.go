package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newExecCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "exec FILE.ts|-",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc exec: not implemented yet") },
	}
}
