package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// Badger deletes table files its MANIFEST does not list, and panics on a
// truncated table, while opening — even read-only. So before Badger sees a
// store, checkStoreFiles reads it without writing anything: the MANIFEST
// must be there and readable whenever data files are, it must list every
// table file present (and every table it lists must be present), and each
// table must open with its block and index checksums intact. Any failure
// is ErrCorrupt naming the file; the directory is left as it was.
//
// One unlisted table is no damage: a table newer than every listed one
// while a memtable write-ahead (.mem) file is there is a flush the process
// did not finish (killed, or exited with the flush in flight after a full
// disk made Close refuse). Its entries are still in the write-ahead file,
// which the open replays, so Badger deleting it loses nothing. A cleanly
// closed store has no .mem file, so a stray table there is still reported.

// storeFiles is what a Badger directory holds that matters here.
type storeFiles struct {
	manifest bool
	tables   map[uint64]string // id → path
	logs     []string          // .mem and .vlog files
	wal      bool              // a .mem (memtable write-ahead) file is there
}

func listStoreFiles(dir string) (storeFiles, error) {
	sf := storeFiles{tables: map[uint64]string{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return sf, err
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == badger.ManifestFilename:
			sf.manifest = true
		case strings.HasSuffix(name, ".sst"):
			id, ok := table.ParseFileID(name)
			if !ok {
				continue
			}
			sf.tables[id] = filepath.Join(dir, name)
		case strings.HasSuffix(name, ".mem"), strings.HasSuffix(name, ".vlog"):
			sf.wal = sf.wal || strings.HasSuffix(name, ".mem")
			sf.logs = append(sf.logs, filepath.Join(dir, name))
		}
	}
	return sf, nil
}

// checkStoreFiles verifies the store in dir before it is opened. A
// missing directory is ErrNotFound when mustExist, else fine (a new
// store).
func checkStoreFiles(dir, id string, mustExist bool) error {
	sf, err := listStoreFiles(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if mustExist {
			return fmt.Errorf("session %s has no event store yet: %w", id, ErrNotFound)
		}
		return nil
	}
	if err != nil {
		return storeError(id, dir, "read the session's store", err)
	}
	if !sf.manifest {
		if len(sf.tables) > 0 || len(sf.logs) > 0 {
			return corrupt(id, dir, "its MANIFEST file is missing, so Badger would start an empty store and delete the data files")
		}
		if mustExist {
			return fmt.Errorf("session %s has no event store yet: %w", id, ErrNotFound)
		}
		return nil
	}
	if err := checkManifest(dir, id, sf); err != nil {
		return err
	}
	for tid, path := range sf.tables {
		if err := checkTable(path); err != nil {
			return corrupt(id, dir, fmt.Sprintf("table %s (id %d) fails its check: %v", filepath.Base(path), tid, err))
		}
	}
	return nil
}

// checkManifest compares the MANIFEST with the table files on disk; it
// takes a cut-off flush's table out of sf.tables.
func checkManifest(dir, id string, sf storeFiles) error {
	path := filepath.Join(dir, badger.ManifestFilename)
	f, err := os.Open(path)
	if err != nil {
		return storeError(id, path, "read the store's MANIFEST", err)
	}
	defer f.Close()
	m, _, err := replayManifest(f, dir)
	if err != nil {
		return corrupt(id, dir, fmt.Sprintf("its MANIFEST cannot be read (%v)", err))
	}
	for tid := range m.Tables {
		if _, ok := sf.tables[tid]; !ok {
			return corrupt(id, dir, fmt.Sprintf("table %s listed in its MANIFEST is missing", table.IDToFilename(tid)))
		}
	}
	var newest uint64
	for tid := range m.Tables {
		newest = max(newest, tid)
	}
	for tid, p := range sf.tables {
		if _, ok := m.Tables[tid]; !ok && sf.wal && tid > newest {
			delete(sf.tables, tid) // a cut-off flush: not checked, Badger drops it
			continue
		}
		if _, ok := m.Tables[tid]; !ok {
			return corrupt(id, dir, fmt.Sprintf("table %s is not listed in its MANIFEST (Badger would delete it)", filepath.Base(p)))
		}
	}
	return nil
}

// replayManifest reads a MANIFEST, turning a panic on garbage into an
// error.
func replayManifest(f *os.File, dir string) (m badger.Manifest, off int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return badger.ReplayManifestFile(f, 0, badger.DefaultOptions(dir).WithLogger(nil))
}

// checkTable opens one table read-only with every checksum verified.
func checkTable(path string) (err error) {
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil && !errors.Is(err, z.NewFile) {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unreadable: %v", firstLine(fmt.Sprint(r)))
		}
	}()
	t, err := table.OpenTable(mf, table.Options{ReadOnly: true, ChkMode: options.OnTableAndBlockRead, BlockSize: 4 << 10, Compression: options.None})
	if err != nil {
		return errors.New(firstLine(err.Error()))
	}
	return t.MmapFile.Close(-1)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func corrupt(id, dir, what string) error {
	who := "session " + id
	if id == "" {
		who = "session store " + dir
	}
	return fmt.Errorf("%s: %w: %s; nothing was changed — move the directory aside (mv %s %s.damaged) and keep it for recovery", who, ErrCorrupt, what, dir, dir)
}
