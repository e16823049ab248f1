package session

import (
	"fmt"
	"syscall"
)

// Badger writes through memory maps: its write-ahead file, its value log
// and every table it flushes are sparse files filled by copying into a
// mapping, and when the disk has no block left for a page the kernel
// kills the process with SIGBUS instead of returning ENOSPC (measured: a
// 3 MB tmpfs dies in table.CreateTable). So the store refuses a write
// unless the disk has room for it plus diskReserve: enough for the
// memtable flush it may trigger (a table of up to one memtable), the next
// write-ahead file and the value log's next pages. An append also wants
// room for the store's tables, which a background compaction may write
// again (BadgerStore.tableBytes). The check is a statfs
// per write; another process filling the disk between the check and the
// write can still win the race, which the reserve makes unlikely.
const diskReserve = 4*badgerMemTable + 1<<20

// freeBytes is the space an unprivileged writer may use on dir's file
// system, or -1 when it cannot be told. Tests replace it.
var freeBytes = statfsFree

func statfsFree(dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// checkSpace fails with ErrDiskFull unless dir's disk has room for need
// bytes plus the reserve.
func checkSpace(id, dir string, need int64) error {
	return checkRoom(id, dir, need+diskReserve)
}

// checkRoom fails with ErrDiskFull unless dir's disk has want bytes free.
func checkRoom(id, dir string, want int64) error {
	free := freeBytes(dir)
	if free < 0 || free >= want {
		return nil
	}
	who := "session " + id
	if id == "" {
		who = "the session store"
	}
	return fmt.Errorf("%s: %w: the disk holding %s has %s free and ptc stops writing below %s, before the store could run out mid-write; free some space and run the command again — every event written so far is kept and the session resumes as it was",
		who, ErrDiskFull, dir, humanBytes(free), humanBytes(want))
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// batchBytes estimates what a batch of events costs on disk (write-ahead
// file, and value log for large values).
func batchBytes(events []Event) int64 {
	var n int64
	for _, e := range events {
		n += int64(2*len(e.Data) + len(e.Type) + 64)
	}
	return n
}
