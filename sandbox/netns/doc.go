// Package netns gives a session one network namespace of its own that
// every host program of the session joins, so a server started by one
// call is reachable on 127.0.0.1 from the next call, and from nothing
// else: not from the host, not from another session.
//
//	ptc ──Start──▶ holder (this binary re-executed as HolderName)
//	 │              new user namespace (uid and gid mapped to themselves)
//	 │              new network namespace, loopback brought up
//	 │              blocks reading stdin; EOF (ptc closed it, or died) ends it
//	 │
//	 └─Wrap(bwrap, args)─▶ nsenter --user=/proc/P/ns/user --net=/proc/P/ns/net
//	                         --preserve-credentials -- bwrap args…
//	                       bwrap then makes its own user, mount, PID, IPC and
//	                       UTS namespaces as usual, but no network namespace:
//	                       the program shares the holder's
//
// Why a holder and nsenter: bubblewrap (0.8 here) can join an existing
// user or PID namespace (--userns, --pidns) but not a network namespace,
// and a Go process cannot join one for its child itself: entering a
// network namespace owned by another user namespace needs that user
// namespace first, and setns(2) refuses to move a multithreaded process
// (every Go process) into a user namespace. nsenter (util-linux) is a
// single-threaded C program that enters both and execs bwrap in place,
// so the process ptc started is bwrap itself and its PR_SET_PDEATHSIG and
// process group work as before. The holder is ptc's own child, never
// reaped before Close, so its PID (and the /proc paths naming its
// namespaces) cannot be reused by another process while the Namespace is
// open; once it has died the paths fail instead of pointing elsewhere.
//
// Without user namespaces, or without nsenter, Start fails and the
// caller falls back to a network namespace per program (what bwrap's
// --unshare-net gives): still no network, only no sharing.
package netns
