package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// commandsUpdate lists the session's custom slash commands (.ptc/commands
// and $PTC_HOME/commands) for the editor's / menu; a prompt starting with
// "/name" runs the command's prompt (expandCommand).
func (c *conv) commandsUpdate() sdk.SessionUpdate {
	set := c.sess.Commands()
	list := make([]sdk.AvailableCommand, 0, len(set.Commands))
	for _, cmd := range set.Commands {
		ac := sdk.AvailableCommand{Name: cmd.Name, Description: termsafe.Clip(cmd.Description, titleMax)}
		if ac.Description == "" {
			ac.Description = "custom command (" + cmd.Source + ")"
		}
		if cmd.ArgumentHint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: termsafe.Clip(cmd.ArgumentHint, titleMax)}}
		}
		list = append(list, ac)
	}
	return sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: list}}
}

// expandCommand turns "/name args" into the custom command's prompt; any
// other text is the prompt as typed.
func (c *conv) expandCommand(text string) string {
	prompt, ok, warnings := c.sess.ExpandCommand(text)
	for _, w := range warnings {
		c.logf("session %s: %s", c.id, termsafe.Line(w))
	}
	if !ok {
		return text
	}
	return prompt
}
