package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// TestMarkdownRenders runs the web UI's markdown renderer in node over
// cases that must render as elements, and hostile text that must stay
// text. (A nested mark once shared the outer loop's regexp and spun
// forever: the case with bold inside a paragraph guards it.)
func TestMarkdownRenders(t *testing.T) {
	node := sharedtest.Tool(t, "node")
	cases := []struct{ md, want string }{
		{"Let me look. <img src=x onerror=alert(1)> **bold move**", `<p>Let me look. &lt;img src=x onerror=alert(1)&gt; <strong>bold move</strong></p>`},
		{"a *b* and `c<d>` __u__", `<p>a <em>b</em> and <code>c&lt;d&gt;</code> <strong>u</strong></p>`},
		{"[x](javascript:alert(1)) [y](https://e.example/p)", `<p>[x](javascript:alert(1)) <a href="https://e.example/p" rel="noopener noreferrer" target="_blank">y</a></p>`},
		{"# Title\n\n- one\n- **two**", `<h3>Title</h3><ul><li>one</li><li><strong>two</strong></li></ul>`},
		{"```html\n<script>x</script>\n```", `<pre><code class="lang-html">&lt;script&gt;x&lt;/script&gt;</code></pre>`},
		{"| a | b |\n|---|---|\n| 1 | <b>2</b> |", `<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>&lt;b&gt;2&lt;/b&gt;</td></tr></table>`},
		{"> quote **x**\n\n2. a\n3. b", `<blockquote><p>quote <strong>x</strong></p></blockquote><ol start="2"><li>a</li><li>b</li></ol>`},
	}
	var mds []string
	for _, c := range cases {
		mds = append(mds, c.md)
	}
	in, _ := json.Marshal(mds)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "markdown_dom.js"), mustAbs(t, filepath.Join("web", "markdown.js")))
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(got) != len(cases) {
		t.Fatalf("%d lines for %d cases:\n%s", len(got), len(cases), out)
	}
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("%q\n got %s\nwant %s", c.md, got[i], c.want)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
