package sandbox

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// workloadFixture lays out, under a new directory, what the workload set
// runs over, the same on every run (a fixed seed):
//
//	repo/      a copy of this repository's Go, Markdown and go.mod files
//	data.json  a 5 MB JSON array of records (id, name, active, score, tags, owner)
//	app.log    a 100 000-line access log, nine space-separated fields a line
//	part.log   its first 10 000 lines
//	tree/      10 000 small files in 100 directories
func workloadFixture(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	copyRepo(tb, sharedtest.ModuleRoot(tb), filepath.Join(dir, "repo"))
	rng := rand.New(rand.NewPCG(30, 35))
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("data.json", fixtureJSON(rng))
	log := fixtureLog(rng)
	write("app.log", log)
	part := log
	for i, n := 0, 0; i < len(log); i++ {
		if log[i] == '\n' {
			if n++; n == 10000 {
				part = log[:i+1]
				break
			}
		}
	}
	write("part.log", part)
	for d := range 100 {
		sub := filepath.Join(dir, "tree", fmt.Sprintf("d%02d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			tb.Fatal(err)
		}
		for f := range 100 {
			ext := []string{".txt", ".go", ".md", ".json"}[f%4]
			body := fmt.Sprintf("file %d of dir %d\nvalue=%d\n", f, d, rng.IntN(1000))
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d%s", f, ext)), []byte(body), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return dir
}

// copyRepo copies the repository's .go, .md and go.mod files (no testdata,
// no binaries) to dst, keeping the layout.
func copyRepo(tb testing.TB, root, dst string) {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".md") && name != "go.mod" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

var fixtureWords = strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon")

// fixtureJSON is an array of records, about 5 MB.
func fixtureJSON(rng *rand.Rand) []byte {
	type record struct {
		ID     int      `json:"id"`
		Name   string   `json:"name"`
		Active bool     `json:"active"`
		Score  float64  `json:"score"`
		Tags   []string `json:"tags"`
		Owner  struct {
			Login string `json:"login"`
			Team  string `json:"team"`
		} `json:"owner"`
	}
	var recs []record
	size := 0
	for i := 0; size < 5<<20; i++ {
		r := record{ID: i, Name: fmt.Sprintf("%s-%s-%d", fixtureWords[rng.IntN(20)], fixtureWords[rng.IntN(20)], i),
			Active: rng.IntN(3) > 0, Score: float64(rng.IntN(100000)) / 100}
		for range 1 + rng.IntN(4) {
			r.Tags = append(r.Tags, fixtureWords[rng.IntN(20)])
		}
		r.Owner.Login = fmt.Sprintf("user%d", rng.IntN(500))
		r.Owner.Team = fixtureWords[rng.IntN(8)]
		recs = append(recs, r)
		size += 160
	}
	data, _ := json.MarshalIndent(recs, "", "  ")
	return append(data, '\n')
}

// fixtureLog is 100 000 lines of
// "DATE TIME LEVEL [worker-N] METHOD PATH STATUS DURATIONms user=NAME".
func fixtureLog(rng *rand.Rand) []byte {
	var b strings.Builder
	levels := []string{"INFO", "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}
	methods := []string{"GET", "GET", "GET", "POST", "PUT", "DELETE"}
	for i := range 100000 {
		fmt.Fprintf(&b, "2026-11-%02d %02d:%02d:%02d %s [worker-%d] %s /api/v1/%s/%d %d %dms user=%s\n",
			1+i/4000, i/3600%24, i/60%60, i%60, levels[rng.IntN(len(levels))], rng.IntN(16),
			methods[rng.IntN(len(methods))], fixtureWords[rng.IntN(20)], rng.IntN(5000),
			[]int{200, 200, 200, 201, 204, 301, 404, 500}[rng.IntN(8)], rng.IntN(2000), fixtureWords[rng.IntN(12)])
	}
	return []byte(b.String())
}
