package session_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestADamagedStoreIsNamedAndLeftAsItWas(t *testing.T) {
	ctx := context.Background()
	damages := []struct {
		name   string
		damage func(t *testing.T, cat *session.Catalog, id string)
		want   string
	}{
		{"a deleted MANIFEST", func(t *testing.T, cat *session.Catalog, id string) {
			must(t, os.Remove(sessiontest.StoreFile(t, cat.SessionDir(id), "MANIFEST")))
		}, "MANIFEST file is missing"},
		{"a MANIFEST of garbage", func(t *testing.T, cat *session.Catalog, id string) {
			must(t, os.WriteFile(sessiontest.StoreFile(t, cat.SessionDir(id), "MANIFEST"), []byte("garbage"), 0o600))
		}, "MANIFEST cannot be read"},
		{"a truncated table", func(t *testing.T, cat *session.Catalog, id string) {
			p := sessiontest.StoreFile(t, cat.SessionDir(id), "*.sst")
			st, err := os.Stat(p)
			must(t, err)
			must(t, os.Truncate(p, st.Size()/2))
		}, "fails its check"},
		{"edited bytes inside a table", func(t *testing.T, cat *session.Catalog, id string) {
			p := sessiontest.StoreFile(t, cat.SessionDir(id), "*.sst")
			b, err := os.ReadFile(p)
			must(t, err)
			for i := 100; i < 140; i++ {
				b[i] ^= 0x5a
			}
			must(t, os.WriteFile(p, b, 0o644))
		}, "fails its check"},
		{"a table the MANIFEST does not list", func(t *testing.T, cat *session.Catalog, id string) {
			b, err := os.ReadFile(sessiontest.StoreFile(t, cat.SessionDir(id), "*.sst"))
			must(t, err)
			must(t, os.WriteFile(filepath.Join(cat.SessionDir(id), "log", "000099.sst"), b, 0o644))
		}, "not listed in its MANIFEST"},
		{"a missing table", func(t *testing.T, cat *session.Catalog, id string) {
			must(t, os.Remove(sessiontest.StoreFile(t, cat.SessionDir(id), "*.sst")))
		}, "is missing"},
	}
	for _, d := range damages {
		t.Run(d.name+" is reported as corruption, and nothing is changed", func(t *testing.T) {
			home := t.TempDir()
			cat := session.NewCatalog(home)
			o := writeBenchSession(t, cat, "/w")
			id := o.Header().ID
			must(t, o.Close())
			d.damage(t, cat, id)
			before := sessiontest.TreeHash(t, cat.SessionDir(id))

			_, err := cat.Open(ctx, id, session.LogOptions{})
			if !errors.Is(err, session.ErrCorrupt) || !strings.Contains(err.Error(), d.want) || !strings.Contains(err.Error(), id) {
				t.Fatalf("open: %v, want ErrCorrupt saying %q and naming the session", err, d.want)
			}
			if _, err := cat.Load(ctx, id); !errors.Is(err, session.ErrCorrupt) {
				t.Fatalf("read-only load: %v", err)
			}
			if s := mustFind(t, cat, id); s.Events != int64(len(benchSession)) {
				t.Fatalf("the listing lost the session's record: %+v", s)
			}
			if after := sessiontest.TreeHash(t, cat.SessionDir(id)); after != before {
				t.Fatal("the damaged session's files were changed")
			}
			other := writeBenchSession(t, cat, "/w")
			must(t, other.Close())
		})
	}
}

func TestFileSystemFaultsAreNamed(t *testing.T) {
	// The classification itself; the real file systems are exercised in
	// the CLI tests with mounts.
	for _, tc := range []struct {
		err  error
		want error
		text string
	}{
		{&fs.PathError{Op: "open", Path: "/h", Err: errROFS}, session.ErrReadOnlyFS, "read-only"},
		{&fs.PathError{Op: "open", Path: "/h", Err: errNoSpace}, session.ErrDiskFull, "free some space"},
		{&fs.PathError{Op: "open", Path: "/h", Err: fs.ErrPermission}, session.ErrPermission, "owns the directory"},
	} {
		err := session.StoreErrorForTest("s1", "/h", "open the store", tc.err)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) || errors.Is(err, session.ErrCorrupt) {
			t.Errorf("%v: got %v", tc.err, err)
		}
	}
}

var (
	errROFS    = syscall.EROFS
	errNoSpace = syscall.ENOSPC
)

func TestAFullDiskFailsTheAppendCleanlyAndTheSessionResumesOnceThereIsRoom(t *testing.T) {
	home := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fullEnv+"="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("writer on a full disk: %v\n%s", err, out)
	}
	var id string
	var n int
	if _, err := fmt.Sscan(string(out), &id, &n); err != nil {
		t.Fatalf("writer said %q", out)
	}
	// Space came back (the probe is real again); the next process resumes
	// the session with every event written before the disk filled.
	cat := session.NewCatalog(home)
	o, err := cat.Open(context.Background(), id, session.LogOptions{})
	must(t, err)
	defer o.Close()
	if len(o.Events()) != n {
		t.Fatalf("%d events after space came back, want %d", len(o.Events()), n)
	}
	if _, err := o.AppendDurable(context.Background(), session.TypeTurnStart, session.TurnStart{Turn: 4}); err != nil {
		t.Fatal(err)
	}
}

// fullEnv makes the test binary write a session in the home it names,
// then see the disk fill up (a faked probe): the append, a new session
// and the close must all fail with ErrDiskFull. It prints the session id
// and its event count.
const fullEnv = "PTC_SESSION_TEST_FULL"

func init() {
	home := os.Getenv(fullEnv)
	if home == "" {
		return
	}
	fail := func(args ...any) {
		fmt.Println(args...)
		os.Exit(1)
	}
	ctx := context.Background()
	cat := session.NewCatalog(home)
	o := writeBenchSession(nopTB{}, cat, "/w")
	session.SetFreeBytesForTest(func(string) int64 { return 1 << 20 })
	if _, err := o.AppendDurable(ctx, session.TypeTurnStart, session.TurnStart{Turn: 4}); !errors.Is(err, session.ErrDiskFull) || !strings.Contains(err.Error(), "free some space") {
		fail("append on a full disk:", err)
	}
	if _, err := cat.Create(ctx, session.Header{ID: "new"}, session.LogOptions{}); !errors.Is(err, session.ErrDiskFull) {
		fail("create on a full disk:", err)
	}
	if _, err := os.Stat(cat.SessionDir("new")); !errors.Is(err, os.ErrNotExist) {
		fail("a refused create left a directory:", err)
	}
	if err := o.Close(); !errors.Is(err, session.ErrDiskFull) {
		fail("close on a full disk:", err)
	}
	fmt.Println(o.Header().ID, len(o.Events()))
	os.Exit(0)
}
