package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// Round 1 kept every session in one Badger store directly in
// <home>/sessions. On first use the catalog moves that store's files,
// unchanged, to <home>/sessions-v1 (a rename per file, under the store's
// own directory lock so a running round-1 ptc is never disturbed), then
// copies each of its sessions into a directory of its own. A session is
// copied into a hidden directory and renamed into place only when
// complete, so an interrupted migration resumes where it stopped; the old
// store is kept as it was, with a MIGRATED note once every session is out.

// LegacyDir is where a round-1 single store is kept after migration.
func LegacyDir(home string) string { return filepath.Join(home, "sessions-v1") }

const migratedNote = "MIGRATED"

// migrate runs the migration if there is one to do, once per catalog.
// Failures do not stop the catalog from working (new sessions live beside
// the old store); they are reported by Notices.
func (c *Catalog) migrate() error {
	c.once.Do(c.migrateNow)
	return nil
}

func (c *Catalog) migrateNow() {
	legacy := LegacyDir(c.home)
	if checkOwner(c.home) != nil {
		return // not ours to rearrange
	}
	if _, err := os.Stat(filepath.Join(c.dir, badger.ManifestFilename)); err == nil {
		if err := moveLegacy(c.dir, legacy); err != nil {
			c.note(err)
			return
		}
	}
	if _, err := os.Stat(filepath.Join(legacy, badger.ManifestFilename)); err != nil {
		return
	}
	if _, err := os.Stat(filepath.Join(legacy, migratedNote)); err == nil {
		return
	}
	if err := c.copyLegacy(legacy); err != nil {
		c.note(fmt.Errorf("the sessions of the old single store in %s could not all be copied (%w); they are still there, and new sessions work as usual", legacy, err))
	}
}

// Notices are problems the catalog worked around (a migration that could
// not finish), for the user to read.
func (c *Catalog) Notices() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.notices...)
}

func (c *Catalog) note(err error) {
	c.mu.Lock()
	c.notices = append(c.notices, err.Error())
	c.mu.Unlock()
	c.say(err.Error())
}

// moveLegacy renames the Badger files of the store in dir into legacy.
func moveLegacy(dir, legacy string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return fmt.Errorf("the old single session store in %s is in use by an older ptc; its sessions will be moved to one directory each once it exits", dir)
	}
	defer syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(filepath.Join(legacy, badger.ManifestFilename)); err == nil {
		return fmt.Errorf("both %s and %s hold an old single session store; move one of them away", dir, legacy)
	}
	if err := os.MkdirAll(legacy, 0o700); err != nil {
		return storeError("", legacy, "make room for the old session store", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	// The MANIFEST goes last: until it moves, the old store is still
	// recognised in place and the move is simply resumed next time.
	var manifest string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !legacyFile(name) {
			continue
		}
		if name == badger.ManifestFilename {
			manifest = name
			continue
		}
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(legacy, name)); err != nil {
			return storeError("", dir, "move the old session store", err)
		}
	}
	if manifest != "" {
		if err := os.Rename(filepath.Join(dir, manifest), filepath.Join(legacy, manifest)); err != nil {
			return storeError("", dir, "move the old session store", err)
		}
	}
	return nil
}

// legacyFile reports whether name is a file of a Badger store.
func legacyFile(name string) bool {
	switch name {
	case badger.ManifestFilename, badger.KeyRegistryFileName, "DISCARD", "LOCK":
		return true
	}
	for _, ext := range []string{".sst", ".vlog", ".mem"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// copyLegacy copies every session of the old store that has no directory
// yet, then leaves the MIGRATED note. One process at a time does it.
func (c *Catalog) copyLegacy(legacy string) error {
	lockf, err := os.OpenFile(filepath.Join(legacy, ".copy-lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lockf.Close()
	if err := syscall.Flock(int(lockf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(legacy, migratedNote)); err == nil {
		return nil // another process finished while we waited
	}
	old, err := OpenBadger(legacy, BadgerOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer old.Close()
	ctx := context.Background()
	list, err := old.List(ctx, ListOptions{})
	if err != nil {
		return err
	}
	var todo []string
	for _, s := range list {
		if _, err := os.Stat(filepath.Join(c.SessionDir(s.Header.ID), metaFile)); err != nil {
			todo = append(todo, s.Header.ID)
		}
	}
	if len(todo) > 0 {
		c.say(fmt.Sprintf("moving %d sessions of the old single store into a directory each (done once; the old store stays in %s)", len(todo), legacy))
	}
	for _, id := range todo {
		if err := c.copyOne(ctx, old, id); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
	}
	note := fmt.Sprintf("%d sessions copied to %s on %s; this store is kept as it was\n", len(list), c.dir, time.Now().UTC().Format(time.RFC3339))
	return os.WriteFile(filepath.Join(legacy, migratedNote), []byte(note), 0o600)
}

// copyOne copies one session into a hidden directory, then renames it
// into place.
func (c *Catalog) copyOne(ctx context.Context, old *BadgerStore, id string) error {
	if err := CheckHeader(Header{ID: id}); err != nil || strings.HasPrefix(id, ".") {
		return fmt.Errorf("the id cannot name a directory")
	}
	ld, err := LoadSession(ctx, old, id)
	if err != nil {
		return err
	}
	tmp := filepath.Join(c.dir, ".migrate-"+id)
	if err := os.RemoveAll(tmp); err != nil { // our own leftover from an interrupted copy
		return err
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return storeError(id, tmp, "copy the session", err)
	}
	st, err := openSessionStore(tmp, id, false)
	if err != nil {
		return err
	}
	err = st.Create(ctx, ld.Header)
	if err == nil && len(ld.Events) > 0 {
		err = st.Append(ctx, id, ld.Events, true)
	}
	err = errors.Join(err, st.Close())
	if err == nil {
		sum := SummaryOf(ld.Header, ld.Events)
		sum.Closed = true
		err = writeMeta(tmp, sum)
	}
	if err == nil {
		err = os.Rename(tmp, c.SessionDir(id))
		if errors.Is(err, fs.ErrExist) {
			err = fmt.Errorf("a directory for it already exists in %s", c.dir)
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return err
}
