package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// artifactDir is where tests keep what a person may want to look at
// after a run (screenshots): $PTC_TEST_ARTIFACTS when set (CI sets it
// to a git-ignored directory of the checkout), else the test's temp dir.
func artifactDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PTC_TEST_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pageErrors collects what the page's scripts threw or logged as errors.
type pageErrors struct {
	mu   sync.Mutex
	list []string
}

func (p *pageErrors) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.list, "\n")
}

// chromium starts a headless Chromium for the test (no network of its
// own, a fresh profile) and returns a browser context and the page's
// script errors.
func chromium(t *testing.T) (context.Context, *pageErrors) {
	t.Helper()
	exe := sharedtest.Tool(t, "chromium")
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-extensions", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	errs := &pageErrors{}
	// The first call starts the browser.
	if err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = (&chromedp.ExceptionError{ExceptionDetails: e.ExceptionDetails}).Error()
		case *runtime.EventConsoleAPICalled:
			if e.Type != runtime.ConsoleAPICalledTypeError && e.Type != runtime.ConsoleAPICalledTypeWarning {
				return
			}
			for _, a := range e.Args {
				msg += " " + string(a.Value) + a.Description
			}
		default:
			return
		}
		errs.mu.Lock()
		errs.list = append(errs.list, msg)
		errs.mu.Unlock()
	}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx, errs
}

// TestTheWebUIInChromium drives the UI in a real browser: open it with
// the token, create a session with a scripted model, send a prompt, see
// the streamed answer and a program's nested calls appear, approve a
// pending call, see the diff of the edit it allowed; everything the
// model wrote shows as text, never as markup.
func TestTheWebUIInChromium(t *testing.T) {
	t.Parallel()
	browser, pageErrs := chromium(t)
	c := newCLI(t)
	srv := c.serve()
	ws := workspace(t)
	program := `const src = await tools.read({file_path: "main.go"});
console.log("read", src.lines.length, "lines");
await tools.bash({command: "echo checked", description: "check", sandbox_permissions: "git-write", justification: "the browser test asks"});
await tools.edit({file_path: "main.go", old_string: "// TODO: handle flags", new_string: "// flags are handled"});
return "edited";`
	script := writeScript(t,
		map[string]any{"text": "Let me look. <img src=x onerror=alert(1)> **bold move**", "delay_ms": 5,
			"tool_calls": []map[string]any{{"name": "run_code", "arguments": map[string]any{"description": "edit main.go", "code": program}}}},
		map[string]any{"text": "The edit is **done**."})

	ctx, cancel := context.WithTimeout(browser, 5*time.Minute)
	defer cancel()
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			dctx, cancel := context.WithTimeout(browser, 10*time.Second)
			defer cancel()
			page, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
			t.Fatalf("%s: %v\npage:\n%s\nscript errors:\n%s\nserver: %s", what, err, page, pageErrs, srv.stderr)
		}
	}
	step("open the UI with the token",
		chromedp.Navigate(srv.base+"/?token="+srv.token),
		chromedp.WaitVisible(css(`#new-session`)))
	step("create a session with a scripted model",
		chromedp.SetValue(css(`#new-session input[name=workspace]`), ws),
		chromedp.SetValue(css(`#new-session input[name=model]`), "script:"+script),
		chromedp.Click(css(`#new-session button[type=submit]`)),
		chromedp.WaitVisible(css(`#prompt`)))
	step("send a prompt",
		chromedp.SendKeys(css(`#prompt`), "please fix the TODO in main.go"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`#transcript .msg.user`)))
	userText := text(`#transcript .msg.user`)
	step("see the streamed answer and the program's nested calls",
		chromedp.WaitVisible(css(`#transcript .msg.assistant strong`)),
		chromedp.WaitVisible(css(`#transcript .call .nested li`)))
	step("see the approval card", chromedp.WaitVisible(css(`#pending .card[data-kind=approval]`)))
	dialog := text(`#pending .card`)
	step("approve it and see the diff",
		chromedp.Click(css(`#pending .card button[data-decision=once]`)),
		chromedp.WaitVisible(css(`#transcript .diff .l.add`)),
		chromedp.WaitVisible(css(`#transcript .call ~ .msg.assistant strong`)))
	answer := text(`#transcript`)
	if !strings.Contains(userText, "please fix the TODO in main.go") {
		t.Errorf("the user's prompt shows as %q", userText)
	}
	for _, want := range []string{"bash asks to run outside its sandbox mode", "git-write", "echo checked", "the browser test asks", ws} {
		if !strings.Contains(dialog, want) {
			t.Errorf("the approval card lacks %q:\n%s", want, dialog)
		}
	}
	for _, want := range []string{"Let me look. <img src=x onerror=alert(1)>", "bold move", "read", "edit", "+// flags are handled", "-// TODO: handle flags", "The edit is done."} {
		if !strings.Contains(answer, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, answer)
		}
	}
	imgs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#transcript img').length`))
	if err != nil || imgs != 0 {
		t.Errorf("the model's <img> became %d element(s) (%v)", imgs, err)
	}
	nested, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#transcript .nested li .name')].map(e => e.textContent)`))
	if err != nil || strings.Join(nested, ",") != "read,bash,edit" {
		t.Errorf("nested calls shown: %v (%v)", nested, err)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "main.go")); !strings.Contains(string(got), "// flags are handled") {
		t.Errorf("main.go after the approved edit:\n%s", got)
	}
	dir := artifactDir(t)
	shot(t, ctx, filepath.Join(dir, "serve-session-desktop.png"))
	t.Run("the session view fits a phone", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`))
		if err != nil || overflow {
			t.Errorf("the session view scrolls sideways on a 390 px screen (%v)", err)
		}
		shot(t, ctx, filepath.Join(dir, "serve-session-phone.png"))
	})
}

// shot saves a screenshot of the whole page.
func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Log(fmt.Sprintf("screenshot: %s (%d bytes)", path, len(png)))
}
