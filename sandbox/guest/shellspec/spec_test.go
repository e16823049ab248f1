package shellspec

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

var (
	specFiles = flag.String("spec.files", "", "regexp: run only spec files whose name matches")
	specShow  = flag.String("spec.show", "", "regexp: print the differing cases of spec files whose name matches")
)

// caseTimeout bounds one case in either shell. A guest case that runs out
// of it while bash finished is a hang.
const caseTimeout = 10 * time.Second

func TestSpecCompat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a guest and runs ~1,800 cases in two shells; skipped with -short")
	}
	root := sharedtest.ModuleRoot(t)
	specDir := sharedtest.Dir(t, "shellcompat", "oils-spec")
	bash := sharedtest.Tool(t, "bash")
	files := loadSpec(t, specDir)
	w := newWorld(t, root, specDir, bash)
	results := w.runAll(files)
	rep := summarise(results)
	report := rep.String()
	t.Log("\n" + report)
	if p := os.Getenv("PTC_SPEC_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(report), 0o644); err != nil {
			t.Error(err)
		}
	}
	if *specShow != "" {
		show := regexp.MustCompile(*specShow)
		for _, r := range results {
			if !r.match && show.MatchString(r.file) {
				t.Log(r.describe())
			}
		}
	}
	for _, r := range results {
		if r.crash != "" || r.hang {
			t.Errorf("%s:%d %q: %s", r.file, r.c.Line, r.c.Name, r.verdict())
		}
		if r.silent() {
			t.Errorf("%s:%d %q: bash fails with output, the guest exits 0 silently", r.file, r.c.Line, r.c.Name)
		}
	}
	if *specFiles == "" && rep.coreRate() < coreTarget {
		t.Errorf("core match rate %.1f %% is below the %.0f %% target", 100*rep.coreRate(), 100*coreTarget)
	}
}

// specFile is one parsed spec file.
type specFile struct {
	name  string // without .test.sh
	cases []Case
}

func loadSpec(t *testing.T, dir string) []specFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.test.sh"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no spec files in %s", dir)
	}
	var only *regexp.Regexp
	if *specFiles != "" {
		only = regexp.MustCompile(*specFiles)
	}
	var files []specFile
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".test.sh")
		if only != nil && !only.MatchString(name) {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, specFile{name: name, cases: Parse(src)})
	}
	for name := range coreFiles {
		if only == nil && !hasFile(files, name) {
			t.Errorf("core file %s.test.sh is missing from %s", name, dir)
		}
	}
	return files
}

func hasFile(files []specFile, name string) bool {
	for _, f := range files {
		if f.name == name {
			return true
		}
	}
	return false
}

// world is what every case runs in: a workspace holding one directory per
// case and a REPO_ROOT with Oils' spec/testdata, the helper programs for
// bash, and a Host running the guest built with the spec helpers.
type world struct {
	t        *testing.T
	bash     string
	ws       string
	repoRoot string
	binDir   string
	host     *sandbox.Host
}

func newWorld(t *testing.T, root, specDir, bash string) *world {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, bash: bash, ws: filepath.Join(base, "ws"), binDir: filepath.Join(base, "bin")}
	w.repoRoot = filepath.Join(w.ws, "repo")
	if err := os.MkdirAll(w.binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(w.repoRoot, "spec", "testdata"), os.DirFS(filepath.Join(specDir, "testdata"))); err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(w.binDir, "spechelper")
	goCmd(t, root, "build", "-o", helper, "./sandbox/guest/shellspec/spechelper")
	for name := range Helpers {
		if err := os.Symlink(helper, filepath.Join(w.binDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	goCmd(t, root, "run", "./sandbox/guest/wasm/gen", "-tags", "ptcspec", "-out", base)
	wasm := gunzip(t, filepath.Join(base, "ptcguest.wasm.gz"))
	w.host = sandbox.NewHost(sandbox.Config{Guest: func() []byte { return wasm }, CacheDir: filepath.Join(base, "cache")})
	t.Cleanup(func() { w.host.Close(context.Background()) })
	// Compile before the first case, so compiling does not eat its time.
	w.host.Warm()
	if err := w.host.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w
}

func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	c := exec.Command("go", args...)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// run is what one shell did with one case.
type run struct {
	stdout, stderr string
	status         int
	timedOut       bool
}

// result compares the two shells on one case.
type result struct {
	file        string
	c           Case
	bash, guest run
	match       bool
	crash       string // why the guest counts as crashed, if it did
	hang        bool   // the guest ran out of time where bash did not
}

// silent reports a case bash fails with output that the guest "passes"
// without a word: the kind of answer that misleads an agent.
func (r result) silent() bool {
	return r.bash.status != 0 && r.bash.stdout+r.bash.stderr != "" &&
		r.guest.status == 0 && r.guest.stdout == "" && r.guest.stderr == ""
}

func (r result) verdict() string {
	switch {
	case r.crash != "":
		return "guest crashed: " + r.crash
	case r.hang:
		return "guest hung"
	case r.match:
		return "match"
	}
	return "differs"
}

func (r result) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s:%d %q: %s\n%s", r.file, r.c.Line, r.c.Name, r.verdict(), indent(r.c.Code))
	fmt.Fprintf(&b, "  bash  status %d stdout %q stderr %q\n", r.bash.status, clip(r.bash.stdout), clip(r.bash.stderr))
	fmt.Fprintf(&b, "  guest status %d stdout %q stderr %q\n", r.guest.status, clip(r.guest.stdout), clip(r.guest.stderr))
	return b.String()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// runAll runs every case of every file in both shells, several at once.
func (w *world) runAll(files []specFile) []result {
	type job struct {
		file string
		n    int
		c    Case
	}
	var jobs []job
	for _, f := range files {
		for i, c := range f.cases {
			jobs = append(jobs, job{f.name, i, c})
		}
	}
	results := make([]result, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				results[i] = w.runCase(j.file, j.n, j.c)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func (w *world) runCase(file string, n int, c Case) result {
	dir := filepath.Join(w.ws, fmt.Sprintf("%s-%03d", file, n))
	r := result{file: file, c: c}
	r.bash = w.runBash(dir, c.Code)
	r.guest, r.crash = w.runGuest(dir, c.Code)
	r.hang = r.guest.timedOut && !r.bash.timedOut
	r.match = r.crash == "" && !r.hang && r.bash.stdout == r.guest.stdout && r.bash.status == r.guest.status
	return r
}

// env is the whole environment of a case, the same in both shells.
func (w *world) env(dir string) map[string]string {
	return map[string]string{
		"PATH":      w.binDir + ":/usr/bin:/bin",
		"HOME":      dir,
		"TMP":       dir,
		"SH":        "bash",
		"REPO_ROOT": w.repoRoot,
		"LC_ALL":    "C.UTF-8",
	}
}

// freshDir empties dir (each shell starts the case in an empty one).
func (w *world) freshDir(dir string) {
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) runBash(dir, code string) run {
	w.freshDir(dir)
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, w.bash, "-c", code)
	c.Dir = dir
	for k, v := range w.env(dir) {
		c.Env = append(c.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = time.Second
	err := c.Run()
	r := run{stdout: stdout.String(), stderr: stderr.String(), timedOut: ctx.Err() != nil}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.status = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.status = 128 + int(ws.Signal())
		}
	case err != nil:
		r.status = -1
	}
	if c.Process != nil {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL) // background jobs the case left behind
	}
	return r
}

// runGuest runs code in a guest instance and says why it crashed, if it
// did: a trap, or a Go runtime panic printed on stderr.
func (w *world) runGuest(dir, code string) (run, string) {
	w.freshDir(dir)
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	o, err := w.host.Run(ctx, w.ws, sandbox.WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: code, Cwd: dir, Env: w.env(dir)})
	r := run{stdout: string(o.Stdout), stderr: string(o.Stderr), status: o.ExitCode, timedOut: o.TimedOut}
	var ge *sandbox.GuestError
	switch {
	case errors.As(err, &ge):
		msg, _, _ := strings.Cut(ge.Error(), "\n")
		return r, msg
	case err != nil:
		return r, "the host could not run the case: " + err.Error()
	case panicked.MatchString(r.stderr):
		return r, "the guest's Go runtime panicked: " + clip(r.stderr)
	}
	return r, ""
}

var panicked = regexp.MustCompile(`(?m)^(panic: |fatal error: )`)

// report is the match rate per file and overall.
type report struct {
	files                  []fileStats
	crashes, hangs, silent int
}

type fileStats struct {
	name           string
	cases, matched int
	core           bool
}

func summarise(results []result) report {
	by := map[string]*fileStats{}
	var rep report
	for _, r := range results {
		s := by[r.file]
		if s == nil {
			_, core := coreFiles[r.file]
			s = &fileStats{name: r.file, core: core}
			by[r.file] = s
		}
		s.cases++
		if r.match {
			s.matched++
		}
		if r.crash != "" {
			rep.crashes++
		}
		if r.hang {
			rep.hangs++
		}
		if r.silent() {
			rep.silent++
		}
	}
	for _, s := range by {
		rep.files = append(rep.files, *s)
	}
	sort.Slice(rep.files, func(i, j int) bool { return rep.files[i].name < rep.files[j].name })
	return rep
}

func (rep report) totals(core bool) (cases, matched int) {
	for _, f := range rep.files {
		if f.core || !core {
			cases += f.cases
			matched += f.matched
		}
	}
	return cases, matched
}

func (rep report) coreRate() float64 {
	cases, matched := rep.totals(true)
	if cases == 0 {
		return 1
	}
	return float64(matched) / float64(cases)
}

func (rep report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Oils spec cases matching bash (stdout and exit status); * = core file\n")
	for _, f := range rep.files {
		mark := " "
		if f.core {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %-18s %4d/%-4d %5.1f %%\n", mark, f.name, f.matched, f.cases, pct(f.matched, f.cases))
	}
	cc, cm := rep.totals(true)
	ac, am := rep.totals(false)
	fmt.Fprintf(&b, "core (%d files)     %4d/%-4d %5.1f %%\n", countCore(rep.files), cm, cc, pct(cm, cc))
	fmt.Fprintf(&b, "all  (%d files)     %4d/%-4d %5.1f %%\n", len(rep.files), am, ac, pct(am, ac))
	fmt.Fprintf(&b, "guest crashes %d, hangs %d, silent successes where bash fails %d\n", rep.crashes, rep.hangs, rep.silent)
	return b.String()
}

func countCore(files []fileStats) int {
	n := 0
	for _, f := range files {
		if f.core {
			n++
		}
	}
	return n
}

func pct(n, d int) float64 {
	if d == 0 {
		return 100
	}
	return 100 * float64(n) / float64(d)
}
