package sdkgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// checker finds an external compiler. A missing one skips the test, unless
// PTC_REQUIRE_TOOLS=1 (set in CI) makes it a failure.
func checker(t *testing.T, envVar string, candidates ...string) string {
	t.Helper()
	if envVar != "" {
		if p := os.Getenv(envVar); p != "" {
			candidates = append([]string{p}, candidates...)
		}
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	msg := "none of " + strings.Join(candidates, ", ") + " is installed"
	if envVar != "" {
		msg += " (set " + envVar + ")"
	}
	sharedtest.Unavailable(t, "%s", msg)
	return ""
}

// tsProject is one tsc program: an SDK declaration file, optionally a
// program using it, and whether that program must fail to compile.
type tsProject struct {
	name    string
	sdk     string
	prog    string
	wantErr bool
}

var tsErrorLine = regexp.MustCompile(`^([^(]+)\(\d+,\d+\): error (TS\d+)`)

// runTSC type-checks every project in one tsc --build run (one process,
// many programs: each SDK file declares the global tools, so two cannot
// share a program) and returns the error lines per project and file.
func runTSC(t *testing.T, tsc string, projects []tsProject) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	var args []string
	for _, p := range projects {
		pd := filepath.Join(dir, p.name)
		if err := os.MkdirAll(pd, 0o755); err != nil {
			t.Fatal(err)
		}
		files := `["sdk.d.ts"]`
		write(t, filepath.Join(pd, "sdk.d.ts"), p.sdk)
		if p.prog != "" {
			files = `["sdk.d.ts", "prog.ts"]`
			write(t, filepath.Join(pd, "prog.ts"), p.prog)
		}
		write(t, filepath.Join(pd, "tsconfig.json"), `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2022", "lib": ["es2022"], "types": []}, "files": `+files+`}`)
		args = append(args, p.name)
	}
	cmd := exec.Command(tsc, append([]string{"--build", "--pretty", "false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		t.Fatalf("running tsc: %v", err)
	}
	errs := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		m := tsErrorLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("tsc: %s", out)
		}
		errs[filepath.ToSlash(m[1])] = append(errs[filepath.ToSlash(m[1])], line)
	}
	return errs
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTypeScriptCompilesUnderStrict checks, in one tsc run: every golden
// .d.ts alone; every program in testdata/programs against its SDK in both
// the full and the compact form (*.ok.ts must compile, *.bad.ts must fail
// in the program, never in the SDK); and a corpus of random schemas.
func TestTypeScriptCompilesUnderStrict(t *testing.T) {
	tsc := checker(t, "PTC_TSC", "../.tools/node/node_modules/.bin/tsc", "tsc")
	var projects []tsProject
	goldens, _ := filepath.Glob("testdata/golden/*.d.ts")
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".d.ts")
		projects = append(projects, tsProject{name: "golden." + name, sdk: read(t, g)})
	}
	progs, _ := filepath.Glob("testdata/programs/*.ts")
	for _, p := range progs {
		base := filepath.Base(p)
		schema := base[:strings.IndexByte(base, '.')]
		for _, form := range []string{".d.ts", ".compact.d.ts"} {
			projects = append(projects, tsProject{
				name:    strings.TrimSuffix(base, ".ts") + strings.TrimSuffix(form, ".d.ts") + ".prog",
				sdk:     read(t, filepath.Join("testdata", "golden", schema+form)),
				prog:    read(t, p),
				wantErr: strings.HasSuffix(base, ".bad.ts"),
			})
		}
	}
	corpus := randomTools(7, 150)
	for _, opts := range []Options{{}, {Compact: true}} {
		text, err := TypeScript(corpus, opts)
		if err != nil {
			t.Fatal(err)
		}
		name := "random"
		if opts.Compact {
			name += ".compact"
		}
		projects = append(projects, tsProject{name: name, sdk: text})
	}
	errs := runTSC(t, tsc, projects)
	for _, p := range projects {
		sdkErrs, progErrs := errs[p.name+"/sdk.d.ts"], errs[p.name+"/prog.ts"]
		switch {
		case len(sdkErrs) > 0:
			t.Errorf("%s: the SDK does not compile:\n%s", p.name, strings.Join(sdkErrs, "\n"))
		case p.wantErr && len(progErrs) == 0:
			t.Errorf("%s: the program compiled, but it misuses the SDK and must not", p.name)
		case !p.wantErr && len(progErrs) > 0:
			t.Errorf("%s: the program does not compile:\n%s", p.name, strings.Join(progErrs, "\n"))
		}
		delete(errs, p.name+"/sdk.d.ts")
		delete(errs, p.name+"/prog.ts")
	}
	var rest []string
	for k := range errs {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	if len(rest) > 0 {
		t.Errorf("tsc reported errors in unexpected files: %v", rest)
	}
}

// TestPythonStubsTypeCheck runs py_compile and mypy --strict over every
// golden .pyi and the random corpus's stubs.
func TestPythonStubsTypeCheck(t *testing.T) {
	py := checker(t, "PTC_PYTHON", "python3")
	mypy := checker(t, "PTC_MYPY", "mypy")
	dir := t.TempDir()
	goldens, _ := filepath.Glob("testdata/golden/*.pyi")
	var files []string
	for _, g := range goldens {
		dst := filepath.Join(dir, filepath.Base(g))
		write(t, dst, read(t, g))
		files = append(files, dst)
	}
	corpus, err := Python(randomTools(7, 150), Options{})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "random.pyi"), corpus)
	files = append(files, filepath.Join(dir, "random.pyi"))
	if out, err := exec.Command(py, append([]string{"-m", "py_compile"}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("py_compile: %v\n%s", err, out)
	}
	write(t, filepath.Join(dir, "usage_ok.py"), read(t, "testdata/programs/py/usage_ok.py"))
	files = append(files, filepath.Join(dir, "usage_ok.py"))
	mypyArgs := func(files ...string) []string {
		return append([]string{"--strict", "--no-incremental", "--cache-dir", filepath.Join(dir, ".cache")}, files...)
	}
	cmd := exec.Command(mypy, mypyArgs(files...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mypy: %v\n%s", err, out)
	}

	// The misuse program must fail on each of its three marked lines.
	write(t, filepath.Join(dir, "usage_bad.py"), read(t, "testdata/programs/py/usage_bad.py"))
	cmd = exec.Command(mypy, mypyArgs("usage_bad.py")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("mypy accepted usage_bad.py, which misuses the stubs")
	}
	for _, line := range []string{"usage_bad.py:6:", "usage_bad.py:7:", "usage_bad.py:8:"} {
		if !strings.Contains(string(out), line) {
			t.Errorf("mypy did not reject %s:\n%s", line, out)
		}
	}
}
