// Package wasmprep rewrites the guest module once, before it is compiled,
// so that running it is cheaper:
//
//   - AddInterrupt replaces wazero's costly WithCloseOnContextDone with a
//     global the host sets to stop the guest;
//   - MergeData joins the Go linker's tens of thousands of tiny data
//     segments into a few, which wazero otherwise evaluates one by one on
//     every instantiation.
//
// Both fail on anything they do not understand, and the host then uses
// the module as it is.
package wasmprep

// Version names the rewrites' output format. Change it whenever
// MergeData or AddInterrupt change what they emit: the host keys its
// on-disk copy of the prepared guest by it.
const Version = "1"
