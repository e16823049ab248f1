// Package sandbox runs shell commands and file operations inside a
// WebAssembly guest under wazero, confined to one workspace directory.
//
//	 process                                  one per command (pooled)
//	┌──────────────────────────────┐        ┌──────────────────────────────┐
//	│ Host                         │ take   │ guest instance (reactor)     │
//	│  wazero runtime (1/process)  │──────▶ │  _initialize already run     │
//	│  compiled guest (1, cached)  │        │  ptc_run ← proto.Request     │
//	│  pools[(workspace, mode)]    │◀─ refill in background             │
//	└──────────────────────────────┘        │  stdin: bytes, stdout+stderr │
//	                                        │  one capped budget; sleep    │
//	                                        │  ends with the ctx           │
//	                                        └──────┬──────────────┬────────┘
//	                                mount at the   │              │ mount /tmp
//	                                workspace path ▼              ▼
//	                                  rootfs.FS             memfs.FS (in memory,
//	                                  ro / rw + protected   size-limited, gone
//	                                  fd cap, quota         with the instance)
//	                                       ▲
//	  host programs (no builtin, allowed,  │ changes applied through the same FS
//	  on PATH): exec_start/exec_io via     │
//	  proto.HostModule ──▶ hostexec: bwrap + helper, workspace and /tmp under
//	                       overlays, stdio joined to the guest's pipeline
//
// Why not wazero's WithDirMount / WithReadOnlyDirMount / os.DirFS: they
// join guest paths onto the host directory and let the host kernel follow
// symlinks. A symlink made by the guest (ln -s ../../..), one shipped in a
// cloned repository, or a directory swapped for a symlink mid-read leads
// outside the workspace, even on a read-only mount; writes through a
// dangling symlink create files outside. wazero's maintainers consider
// hardening those mounts out of scope. Package rootfs instead resolves
// every path itself, one directory descriptor at a time, refuses to leave
// the root, and decides its policy (symlink targets, FIFOs, fd cap,
// protected paths, quota) on the path as resolved. The escape suite in
// this package attacks it with a raw-WASI probe guest.
//
// A Scope says where a command runs: workspace, mode, session (its quota
// and its own spill directory, mounted read-only for it alone), network
// and the host programs allowed. A command the guest has no builtin for
// can run as a host program under bubblewrap (Config.HostExec, package
// hostexec): it writes into overlays whose changes come back and are
// applied through the instance's rootfs.FS and memfs.FS, so both tiers
// share one protection model and one quota.
//
// Each command gets an instance that was instantiated, initialised and
// warmed up (one no-op ":" call, which takes the guest's first-call costs
// off the critical path) ahead of time, or one that served an earlier
// one-off command of the same pool key (workspace, mode, session, spill)
// and was reset: its interpreter is new per command anyway, and an
// instance goes back to the pool only when the command left nothing
// behind (no background job, no open file, little memory growth, not
// stopped or crashed) and its /tmp was emptied (instance.recycle); other
// keys never see it. Up to PoolSize ready instances are kept per key; a
// call finding none waits for one to come back or for a refill, and makes
// its own only when that looks sooner. Linear memory is an mmap
// reservation of the memory limit, so the guest's heap grows without
// copying and is unmapped at once when the instance is closed. At most
// MaxRunning commands execute at once; Close waits for them, since
// closing the runtime unmaps their memory; Shell keeps one instance alive
// for the minimal preset's persistent shell. In danger-full-access the
// bash tool runs the host's /bin/bash instead (HostShell) and says so in
// its result. tools.glob and tools.grep do not use instances: Host.Search
// runs them natively over the same kinds of mount (package search).
package sandbox
