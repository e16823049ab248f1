package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/skills"
)

// newSkillsCmd is `ptc skills`: the skills a session in the workspace
// would see, with where each comes from, and what was wrong with the
// SKILL.md files that were skipped.
func newSkillsCmd() *cobra.Command {
	var homeFlag, workspace, output string
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List the skills of this workspace and of $PTC_HOME/skills, with their source",
		Long: `List the skills a session in the workspace would see: SKILL.md directories under
$PTC_HOME/skills (source user) and the workspace's .ptc/skills, .agents/skills and
.claude/skills (source workspace). A user skill wins over a workspace skill of the same
name. A SKILL.md that cannot be used is a warning naming the file.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if output != "" && output != "text" && output != "json" {
				return fmt.Errorf("unknown output format %q: use text or json", output)
			}
			home, err := harness.OpenHome(homeFlag)
			if err != nil {
				return err
			}
			defer home.Close()
			ws, err := harness.ResolveWorkspace(workspace, nil)
			if err != nil {
				return err
			}
			cat := home.Skills(ws)
			if output == "json" {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(skillsView{Skills: append([]skills.Skill{}, cat.Skills()...), Warnings: append([]string{}, cat.Warnings()...)})
			}
			for _, w := range cat.Warnings() {
				fmt.Fprintf(c.ErrOrStderr(), "ptc: warning: %s\n", termsafe.String(w))
			}
			if cat.Len() == 0 {
				fmt.Fprintf(c.OutOrStdout(), "no skills in %s or %s (a skill is a directory holding a SKILL.md)\n",
					termsafe.Line(home.Dir()+"/"+skills.HomeDir), termsafe.Line(ws+"/.ptc/skills"))
				return nil
			}
			w := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tSOURCE\tDESCRIPTION\tFILE")
			for _, s := range cat.Skills() {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", termsafe.Line(s.Name), s.Source, termsafe.Clip(s.Description, 70), termsafe.Line(s.File))
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&homeFlag, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&workspace, "workspace", "", "workspace whose skills to list (default: the current directory)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

// skillsView is `ptc skills --output json`.
type skillsView struct {
	Skills   []skills.Skill `json:"skills"`
	Warnings []string       `json:"warnings"`
}
