// Package presets holds the agent presets: YAML files embedded in the
// binary (ptc, standard, minimal) plus the user's own under
// <home>/presets/*.yaml, which override embedded ones by id.
//
// A preset chooses the persona, extra prompt sections, the tool names, how
// tools are presented (native, ptc, both), whether runtime-context
// snapshots are sent, the default sandbox mode, the step budget, whether
// long sessions are pruned and compacted automatically (compact), the host
// programs the sandboxed shell may run under bubblewrap (host_programs;
// absent: the common toolchains) and whether they may use the network
// (network). Loading
// validates everything it can without building tools: unknown fields,
// unknown tool names (against the list the caller passes), duplicate
// section names and unknown {{variables}}; every error names the file and
// the field.
package presets
