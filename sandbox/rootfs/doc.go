// Package rootfs is the workspace filesystem the sandbox guest sees: an
// implementation of wazero's experimental/sys.FS confined to one
// directory.
//
// wazero's stock DirMount joins guest paths onto a host directory and lets
// the host kernel follow symlinks, so a symlink made by the guest or shipped
// in a repository leads outside the workspace. This FS resolves paths
// itself, one directory descriptor at a time (see walk.go), refuses any
// step that leaves the root, and acts on the final (directory, name) pair
// with a non-following *at call, so every operation stays inside the
// directory it was opened on and the policy is decided on exactly what is
// operated on, even while another process swaps directories for symlinks
// underneath it.
//
// On top of that confinement the FS enforces policy:
//
//   - symlinks whose target is absolute or lexically leaves the root are
//     refused at creation (host tools such as git would follow them later);
//   - opens are non-blocking and only regular files and directories are
//     accepted, so a FIFO or device in the workspace fails fast;
//   - open files are capped per FS (one FS per guest instance);
//   - read-only mode refuses every mutation with EROFS;
//   - protected paths (every .git, .ptc and .mcp.json component anywhere,
//     the directory a top-level gitdir file names, and a configurable
//     list) refuse mutation and creation with EACCES, also when reached
//     through a symlink or a bind mount (by directory identity); git-write
//     opens the top-level .git except what decides what git runs;
//   - an optional quota on how much files grow, shared between FS values.
//
// Residual risks: hard links that already point at outside inodes stay
// reachable, and a directory the user moves out of the workspace while a
// command runs can stay reachable through the directory cache until the
// command ends.
package rootfs
