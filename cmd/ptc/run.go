package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newRunCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "run [PROMPT]",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc run: not implemented yet") },
	}
}
