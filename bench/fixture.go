package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// File is one file of the generated workspace.
type File struct {
	Path    string // slash-separated, relative to the workspace
	Content string
}

// Fixture is the generated workspace: a small Go module of a few dozen
// files of realistic size, the same bytes on every run so that the
// scripted tasks can name files and know their answers.
type Fixture struct {
	Files []File
}

// fixturePackages are the packages of the fixture module; validate
// holds, per package, the Validate function it declares (if any).
var fixturePackages = []struct {
	dir, name, validate string
}{
	{"api", "api", "func Validate(req *http.Request) (int, error)"},
	{"cmd/shop", "main", ""},
	{"internal/auth", "auth", "func Validate(token string) error"},
	{"internal/cart", "cart", "func (c *Cart) Validate() error"},
	{"internal/orders", "orders", "func Validate(ctx context.Context, o Order) ([]string, error)"},
	{"internal/pricing", "pricing", "func (r Rule) Validate(now time.Time) error"},
	{"internal/store", "store", "func (s *Store) Validate(key string, strict bool) error"},
	{"pkg/log", "log", ""},
	{"pkg/money", "money", ""},
}

var (
	owners = []string{"ana", "bo", "chen", "dev"}
	nouns  = []string{"Item", "Price", "Order", "Token", "Entry", "Batch", "Rule", "Quote", "Event", "Limit", "Slot", "Refund"}
	verbs  = []string{"Load", "Save", "Apply", "Merge", "Check", "Build", "Parse", "Format", "Split", "Count", "Resolve", "Flush"}
	stmts  = []string{
		"if err != nil {\n\t\treturn err\n\t}",
		"for i := range items {\n\t\ttotal += items[i].Amount\n\t}",
		"mu.Lock()\n\tdefer mu.Unlock()",
		"n := len(buf)\n\tbuf = append(buf[:0], data[:n]...)",
		"key := fmt.Sprintf(\"%s/%d\", prefix, id)",
		"select {\n\tcase <-ctx.Done():\n\t\treturn ctx.Err()\n\tdefault:\n\t}",
		"sort.Slice(rows, func(i, j int) bool { return rows[i].ID < rows[j].ID })",
		"if len(name) == 0 {\n\t\treturn errors.New(\"empty name\")\n\t}",
	}
)

// NewFixture builds the workspace in memory.
func NewFixture() *Fixture {
	f := &Fixture{}
	f.add("go.mod", goMod)
	f.add("README.md", "# shop\n\nA small order service used as the ptc bench workspace.\n")
	var words strings.Builder
	for i := range 20 {
		fmt.Fprintf(&words, "line %d: foo bar %d\n", i, i*i)
	}
	f.add("testdata/words.txt", words.String()) // what `grep -rn foo .` finds
	for p, pkg := range fixturePackages {
		nfiles := 3 + p%2
		for i := range nfiles {
			path := fmt.Sprintf("%s/%s_%c.go", pkg.dir, pkg.name, 'a'+i)
			validate := ""
			if i == 1 {
				validate = pkg.validate
			}
			f.add(path, goFile(pkg.name, p, i, validate))
		}
	}
	sort.Slice(f.Files, func(i, j int) bool { return f.Files[i].Path < f.Files[j].Path })
	return f
}

func (f *Fixture) add(path, content string) { f.Files = append(f.Files, File{path, content}) }

// Write creates the files under dir.
func (f *Fixture) Write(dir string) error {
	for _, file := range f.Files {
		p := filepath.Join(dir, filepath.FromSlash(file.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(file.Content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Lookup returns the content of path.
func (f *Fixture) Lookup(path string) string {
	for _, file := range f.Files {
		if file.Path == path {
			return file.Content
		}
	}
	return ""
}

const goMod = `module example.com/shop

go 1.22

require (
	github.com/google/uuid v1.6.0
	github.com/jackc/pgx/v5 v5.5.4
	github.com/shopspring/decimal v1.3.1
	golang.org/x/sync v0.7.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/puddle/v2 v2.2.1 // indirect
	golang.org/x/crypto v0.21.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
`

// goFile is one source file: a type, a handful of functions of varying
// length, TODO comments here and there, and possibly a Validate.
func goFile(pkg string, p, i int, validate string) string {
	var b strings.Builder
	h := p*7 + i*5
	typ := nouns[(p+i*3)%len(nouns)] + strings.ToUpper(pkg[:1]) + pkg[1:]
	fmt.Fprintf(&b, "// Package %s is part of the shop service.\npackage %s\n\n", pkg, pkg)
	b.WriteString("import (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sort\"\n\t\"sync\"\n)\n\n")
	fmt.Fprintf(&b, "// %s is what this file manages.\ntype %s struct {\n\tID     int\n\tName   string\n\tAmount int64\n\tmu     sync.Mutex\n}\n\n", typ, typ)
	nfuncs := 3 + h%7
	for k := range nfuncs {
		name := verbs[(h+k*5)%len(verbs)] + nouns[(h+k)%len(nouns)]
		if k == 1 && validate != "" {
			writeValidate(&b, validate, h)
		}
		fmt.Fprintf(&b, "// %s %s the %s records of a request.\n", name, strings.ToLower(verbs[(h+k*5)%len(verbs)])+"s", strings.ToLower(nouns[(h+k)%len(nouns)]))
		if k%2 == 1 {
			fmt.Fprintf(&b, "func (x *%s) %s(ctx context.Context, items []%s) error {\n", typ, name, typ)
		} else {
			fmt.Fprintf(&b, "func %s(ctx context.Context, prefix string, id int) (int64, error) {\n", name)
		}
		for s := range 2 + (h*3+k*7)%9 {
			if (h+k+s)%11 == 3 {
				fmt.Fprintf(&b, "\t// TODO(%s): handle the %s case without a second pass.\n", owners[(h+s)%len(owners)], strings.ToLower(nouns[(k+s)%len(nouns)]))
			}
			fmt.Fprintf(&b, "\t%s\n", stmts[(h+k*3+s)%len(stmts)])
		}
		if k%2 == 1 {
			b.WriteString("\treturn nil\n}\n\n")
		} else {
			b.WriteString("\treturn 0, nil\n}\n\n")
		}
	}
	return b.String()
}

func writeValidate(b *strings.Builder, sig string, h int) {
	b.WriteString("// Validate reports the first problem found, checking the fields in the\n")
	if h%2 == 0 {
		b.WriteString("// order a client fills them in.\n")
	} else {
		b.WriteString("// order they are stored; a nil error means the value may be saved.\n")
	}
	fmt.Fprintf(b, "%s {\n\treturn nil\n}\n\n", sig)
}
