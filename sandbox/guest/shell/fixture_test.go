package shell

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixtureTime is the modification time of every file agentFixture lays out,
// so listings and -newer tests read the same on every run.
var fixtureTime = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// agentFixtureFiles is a small project of the kind agents work in: code in
// several languages, configs, data files, notes to diff, a vendored
// directory to prune.
func agentFixtureFiles() map[string]string {
	var big strings.Builder
	for i := range 60 {
		fmt.Fprintf(&big, "line %02d of a file larger than one kilobyte\n", i)
	}
	var log strings.Builder
	levels := []string{"INFO", "INFO", "WARN", "ERROR", "INFO", "DEBUG"}
	for i := range 24 {
		lv := levels[i%len(levels)]
		fmt.Fprintf(&log, "%s: 2024-05-%02d 10:%02d:00 request %d handled in %dms\n", lv, 1+i%28, i*2, 1000+i, 5+i*7%90)
	}
	return map[string]string{
		"README.md": "# Demo project\n\nA small demo used by the one-liner test.\n\n## Usage\n\nRun `npm test` to check it.   \nTODO: document the config file\n" +
			"This line is deliberately long so that fold and cut have something to wrap around at the edges.\n",
		"package.json":                   "{\n  \"name\": \"demo\",\n  \"version\": \"1.2.3\",\n  \"private\": true,\n  \"scripts\": {\n    \"build\": \"tsc -p .\",\n    \"test\": \"jest\"\n  },\n  \"dependencies\": {\n    \"lodash\": \"^4.17.21\",\n    \"react\": \"^18.2.0\"\n  },\n  \"devDependencies\": {\n    \"typescript\": \"^5.4.0\"\n  }\n}\n",
		"tsconfig.json":                  "{\n  \"compilerOptions\": {\"strict\": true, \"target\": \"es2022\"}\n}\n",
		"config.ini":                     "# settings\n[server]\nhost=localhost\nport=8080\n\n[db]\nname=app\n# port is optional\nuser=admin\n",
		"src/index.ts":                   "import { add } from './util';\nimport { Button } from './components/Button';\n\n// TODO: read the port from config\nexport const port = 8080;\nconsole.log(add(1, 2), Button);\n",
		"src/util.ts":                    "import * as path from 'path';\n\nexport function add(a: number, b: number): number {\n  return a + b; // TODO overflow?\n}\n\nexport const sep = path.sep;\n",
		"src/components/Button.tsx":      "import React from 'react';\n\nexport function Button() {\n  return <button>ok</button>;\n}\n",
		"src/components/Card.tsx":        "import React from 'react';\n\nexport const Card = () => <div className=\"card\" />;\n",
		"lib/main.go":                    "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n",
		"lib/helper.go":                  "package main\n\n// greet says hello.\nfunc greet(name string) string {\n\treturn \"hello, \" + name // TODO i18n\n}\n",
		"lib/helper_test.go":             "package main\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif greet(\"x\") != \"hello, x\" {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
		"scripts/build.sh":               "#!/bin/sh\nset -e\necho building\n",
		"scripts/deploy.py":              "#!/usr/bin/env python3\nimport sys\n\nprint('deploy', sys.argv)\n",
		"node_modules/left-pad/index.js": "module.exports = require('./pad');\n",
		"data/users.csv":                 "id,name,age,city\n1,alice,34,paris\n2,bob,27,berlin\n3,carol,41,paris\n4,dave,30,rome\n5,eve,38,berlin\n",
		"data/scores.txt":                "alice 91\nbob 78\ncarol 85\ndave 62\neve 91\nfrank 70\n",
		"data/app.log":                   log.String(),
		"data/words.txt":                 "pear\napple\nfig\napple\nkiwi\npear\napple\nbanana\n",
		"data/versions.txt":              "1.10.0\n1.2.0\n1.9.3\n2.0.0\n1.2.10\n",
		"data/sizes.txt":                 "10K\n2M\n512\n1G\n3K\n",
		"data/crlf.txt":                  "one\r\ntwo\r\nthree\r\n",
		"data/spaces.txt":                "a    b  c\n  d   e\n",
		"data/nums.txt":                  "3\n1\n4\n1\n5\n",
		"data/sorted1.txt":               "apple\nbanana\ncherry\ndate\n",
		"data/sorted2.txt":               "banana\ncherry\nelder\nfig\n",
		"data/join1.txt":                 "1 alice\n2 bob\n3 carol\n",
		"data/join2.txt":                 "1 paris\n3 rome\n4 oslo\n",
		"data/ids.csv":                   "a,1\nb,2\nc,3\n",
		"data/names.csv":                 "a,ant\nc,cat\nd,dog\n",
		"data/records.json":              "[\n  {\"name\": \"alice\", \"age\": 34, \"city\": \"paris\"},\n  {\"name\": \"bob\", \"age\": 27, \"city\": \"berlin\"},\n  {\"name\": \"carol\", \"age\": 41, \"city\": \"paris\"}\n]\n",
		"data/table.txt":                 "name age city\nalice 34 paris\nbob 27 berlin\n",
		"data/big.txt":                   big.String(),
		"notes/old.txt":                  "alpha\nbeta\ngamma\nfoo bar foo\ndelta\n",
		"notes/new.txt":                  "alpha\nBETA\ngamma\nfoo bar foo\ndelta\nepsilon\n",
		"notes2/old.txt":                 "alpha\nbeta\ngamma\n",
		"notes2/extra.txt":               "only here\n",
		"empty.txt":                      "",
		".gitignore":                     "node_modules/\n*.log\n",
		".env.example":                   "PORT=8080\n",
	}
}

// agentFixture lays out agentFixtureFiles in dir (which must be empty or
// absent), plus an empty directory and a zip archive, all with
// fixtureTime as their modification time.
func agentFixture(t testing.TB, dir string) {
	t.Helper()
	files := agentFixtureFiles()
	files["data/bundle.zip"] = string(fixtureZip(t))
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "scripts/deploy.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "emptydir"), 0o755); err != nil {
		t.Fatal(err)
	}
	older := fixtureTime.Add(-48 * time.Hour)
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ts := fixtureTime
		if strings.HasSuffix(p, "users.csv") || strings.HasSuffix(p, "scores.txt") {
			ts = older
		}
		return os.Chtimes(p, ts, ts)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fixtureZip is a zip archive holding inner.txt.
func fixtureZip(t testing.TB) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "inner.txt", Method: zip.Deflate, Modified: fixtureTime})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("inside the bundle\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
