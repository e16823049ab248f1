package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
)

// newConfigCmd is `ptc config [get [KEY] | set KEY VALUE | path]`.
func newConfigCmd() *cobra.Command {
	var home string
	cmd := &cobra.Command{
		Use:   "config [get [KEY] | set KEY VALUE | path]",
		Short: "Show or change $PTC_HOME/config.yaml: the model server ptc uses when the environment names none",
		Long: `$PTC_HOME/config.yaml holds provider, base_url, model and api_key (mode 0600). ptc reads it when
none of DEEPSEEK_API_KEY, OPENAI_API_KEY and OPENAI_BASE_URL is set; --model and --base-url
override it. The first interactive ptc without a key writes it through the setup dialog.
ptc config alone (or get) prints it with the key masked; get KEY prints one value.`,
		Args: cobra.MaximumNArgs(3),
		RunE: func(c *cobra.Command, args []string) error {
			h, err := openHome(home)
			if err != nil {
				return err
			}
			dir := h.Dir()
			out := c.OutOrStdout()
			if len(args) == 0 {
				args = []string{"get"}
			}
			switch {
			case args[0] == "path" && len(args) == 1:
				fmt.Fprintln(out, harness.UserConfigPath(dir))
				return nil
			case args[0] == "get" && len(args) <= 2:
				cfg, err := harness.LoadUserConfig(dir)
				if err != nil {
					return err
				}
				if len(args) == 2 {
					v, ok := cfg.Get(args[1])
					if !ok {
						return fmt.Errorf("unknown key %q: use one of %s", args[1], strings.Join(harness.UserConfigKeys, ", "))
					}
					fmt.Fprintln(out, termsafe.Line(v))
					return nil
				}
				for _, k := range harness.UserConfigKeys {
					v, _ := cfg.Get(k)
					if k == "api_key" {
						v = maskKey(v)
					}
					fmt.Fprintf(out, "%s: %s\n", k, termsafe.Line(v))
				}
				return nil
			case args[0] == "set" && len(args) == 3:
				cfg, err := harness.LoadUserConfig(dir)
				if err != nil {
					return err
				}
				if err := cfg.Set(args[1], args[2]); err != nil {
					return err
				}
				return cfg.Save(dir)
			}
			return newUsageError(c, errors.New("ptc config takes get [KEY], set KEY VALUE or path"))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	return cmd
}

// maskKey shows that a key is set without showing it.
func maskKey(k string) string {
	switch {
	case k == "":
		return ""
	case len(k) <= 8:
		return "(set)"
	}
	return k[:3] + "…" + k[len(k)-4:]
}
