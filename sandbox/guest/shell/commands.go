package shell

// addedCommands are the command families registered after the first set
// in exec.go; each lives in the file named for it.
var addedCommands = []map[string]builtinFunc{awkCommands, jqCommands, hashCommands, lineCommands, tableCommands, dumpCommands, fileInfoCommands, archiveCommands, sortCommands, systemCommands, fileTypeCommands, treeCommands, bcCommands}
