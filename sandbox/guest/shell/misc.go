package shell

var miscCommands = map[string]builtinFunc{}
var grepCommands = map[string]builtinFunc{}
var sedCommands = map[string]builtinFunc{}

func xargs(c *cmd, args []string) int { return c.fail("not yet available") }
