package sdkgen

import (
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// variant is one rendering of a tool set, saved under its file suffix.
type variant struct {
	ext    string
	render func([]Tool) (string, error)
}

var variants = []variant{
	{".d.ts", func(ts []Tool) (string, error) { return TypeScript(ts, Options{}) }},
	{".compact.d.ts", func(ts []Tool) (string, error) { return TypeScript(ts, Options{Compact: true}) }},
	{".pyi", func(ts []Tool) (string, error) { return Python(ts, Options{}) }},
}

func schemaFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/schemas/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema fixtures: %v", err)
	}
	return files
}

func loadTools(t testing.TB, path string) []Tool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := ParseTools(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

func TestGoldenFiles(t *testing.T) {
	for _, path := range schemaFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name+" renders as its golden files say", func(t *testing.T) {
			tools := loadTools(t, path)
			for _, v := range variants {
				got, err := v.render(tools)
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", "golden", name+v.ext)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./sdkgen -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the rendered text; run go test ./sdkgen -update and review the diff", golden)
				}
			}
		})
	}
}

func TestOutputDoesNotDependOnToolOrder(t *testing.T) {
	for _, path := range schemaFiles(t) {
		t.Run(filepath.Base(path)+" renders the same text when its tools are shuffled", func(t *testing.T) {
			tools := loadTools(t, path)
			shuffled := append([]Tool(nil), tools...)
			rand.New(rand.NewSource(1)).Shuffle(len(shuffled), func(i, j int) {
				shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
			})
			for _, v := range variants {
				a, err1 := v.render(tools)
				b, err2 := v.render(shuffled)
				if err1 != nil || err2 != nil || a != b {
					t.Errorf("%s: output depends on input order (errors %v, %v)", v.ext, err1, err2)
				}
			}
		})
	}
}
