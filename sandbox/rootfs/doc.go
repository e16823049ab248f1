// Package rootfs is the workspace filesystem the sandbox guest sees: an
// implementation of wazero's experimental/sys.FS backed by an os.Root.
//
// wazero's stock DirMount joins guest paths onto a host directory and lets
// the host kernel follow symlinks, so a symlink made by the guest or shipped
// in a repository leads outside the workspace. os.Root resolves one path
// component at a time and refuses any step that leaves the root, so every
// operation here stays inside the directory it was opened on, even while
// another process swaps directories for symlinks underneath it.
//
// On top of that confinement the FS enforces policy:
//
//   - symlinks whose target is absolute or lexically leaves the root are
//     refused at creation (host tools such as git would follow them later);
//   - opens are non-blocking and only regular files and directories are
//     accepted, so a FIFO or device in the workspace fails fast;
//   - open files are capped per FS (one FS per guest instance);
//   - read-only mode refuses every mutation with EROFS;
//   - protected paths (.git/config, .git/hooks/** and a configurable list)
//     refuse mutation with EACCES, also when reached through a symlink;
//   - an optional byte quota on writes, shared between FS values.
//
// Residual risks os.Root does not cover: hard links that already point at
// outside inodes and bind mounts inside the workspace stay reachable.
package rootfs
