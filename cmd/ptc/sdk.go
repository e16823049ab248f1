package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func newSdkCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sdk",
		Short: "not implemented yet",
		RunE:  func(*cobra.Command, []string) error { return errors.New("ptc sdk: not implemented yet") },
	}
}
