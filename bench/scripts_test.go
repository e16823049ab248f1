package bench

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite examples/bench from the task definitions")

// TestScriptsMatchExamples keeps examples/bench/*.json, the replayable
// copies of the scripts, equal to what the bench runs.
func TestScriptsMatchExamples(t *testing.T) {
	fx := NewFixture()
	for _, task := range Tasks {
		for preset, render := range map[string]func(*Fixture) ([]byte, error){"standard": task.StandardScript, "ptc": task.PTCScript} {
			t.Run(task.Name+" "+preset+" script is up to date", func(t *testing.T) {
				want, err := render(fx)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, '\n')
				path := filepath.Join("..", "examples", "bench", task.Name+"."+preset+".json")
				if *update {
					if err := os.WriteFile(path, want, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./bench -update)", err)
				}
				if string(got) != string(want) {
					t.Errorf("%s is stale: run go test ./bench -run TestScriptsMatchExamples -update", path)
				}
			})
		}
	}
}

func TestFixtureIsDeterministic(t *testing.T) {
	a, b := NewFixture(), NewFixture()
	if len(a.Files) < 30 || len(a.Files) != len(b.Files) {
		t.Fatalf("fixture has %d and %d files, want the same few dozen", len(a.Files), len(b.Files))
	}
	for i := range a.Files {
		if a.Files[i] != b.Files[i] {
			t.Fatalf("file %s differs between two builds", a.Files[i].Path)
		}
	}
}

func TestAnswersCoverTheFixture(t *testing.T) {
	fx := NewFixture()
	tests := []struct {
		name, answer string
		min          int
	}{
		{"every package gets a TODO count", todoAnswer(fx), len(fixturePackages)},
		{"every Validate is found", validateAnswer(fx), 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := countRows(tt.answer); n < tt.min {
				t.Errorf("%d rows, want at least %d: %s", n, tt.min, tt.answer)
			}
		})
	}
}

func countRows(s string) int {
	n := 1
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ';' && s[i+1] == ' ' {
			n++
		}
	}
	return n
}
