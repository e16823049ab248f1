// Package hostexec runs host programs (go, git, node, python3, ...) for
// the sandbox under bubblewrap, confined the same way the wasm guest is.
//
//	ptc (host)                         bwrap: new user, mount, PID, IPC, UTS,
//	 Run(Spec) ──config (fd 3)──────▶  network namespaces; /usr /lib* /bin /etc
//	    ▲                               and toolchain roots read-only (what root
//	    │                               alone may read masked); the root and /dev
//	    │                               read-only; HOME the session's, caches the
//	    │                               workspace's (Dirs); the workspace read-only
//	    │                              ┌──────────────────────────────────────┐
//	    │                              │ helper (this binary, re-executed)     │
//	    │                              │  mounts an overlay on the workspace:  │
//	    │                              │  writes go to a size-limited tmpfs    │
//	    │                              │  layer; protected paths bound ro      │
//	    │                              │  runs the program in a nested user    │
//	    │                              │  namespace (no capabilities over the  │
//	    │                              │  mounts), stdio passed straight on,   │
//	    │                              │  after setting its Limits and, with   │
//	    │                              │  Landlock, where it may make sockets  │
//	    │                              │  when it exits: walks the layer and   │
//	    └──status + changes (fd 4)─────│  streams every change as tar          │
//	 Apply(changes) through rootfs     └──────────────────────────────────────┘
//
// The program never writes the workspace itself. Everything it changed
// comes back as a stream the caller applies through the same rootfs
// policy the guest's own writes go through (package sandbox does it), so
// one protection model covers both tiers: a new .git anywhere, .ptc or
// .mcp.json is refused there even though no mount could stop the program
// from creating one in its layer, the write quota is charged, and
// symlinks that escape are refused. Bind mounts alone could only protect
// what exists when the program starts.
//
// The helper is this same executable: an init function in this package
// recognises the name it is started under (HelperName) and runs the
// helper instead of the program's main, so any binary linking the
// package (ptc, a test binary) can host it.
//
// Without bwrap, or where bwrap cannot create namespaces, Available
// reports what to install or enable; nothing ever runs unconfined.
package hostexec
