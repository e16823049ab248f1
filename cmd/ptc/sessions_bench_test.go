package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkPtcSessions is `ptc sessions` (text and json) over a home of
// 1 000 sessions, each a real session directory (one made by ptc run,
// copied under new ids with its record rewritten). The baseline is `ptc
// presets` on the same home: starting the binary and printing a table.
func BenchmarkPtcSessions(b *testing.B) {
	c := &cli{t: &testing.T{}, home: b.TempDir()}
	hello, err := filepath.Abs(filepath.Join("..", "..", "examples", "hello.json"))
	if err != nil {
		b.Fatal(err)
	}
	out, err := c.command("run", "--model", "script:"+hello, "--output", "json", "hello").Output()
	if err != nil {
		b.Fatal(err)
	}
	var f finalJSON
	if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), `{"session_id":%q`, &f.SessionID); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	src := filepath.Join(c.home, "sessions", f.SessionID)
	meta, err := os.ReadFile(filepath.Join(src, "meta.json"))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 999 {
		id := fmt.Sprintf("20260101-%06d-c10e00", i)
		dst := filepath.Join(c.home, "sessions", id)
		if err := exec.Command("cp", "-r", src, dst).Run(); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, "meta.json"), []byte(strings.ReplaceAll(string(meta), f.SessionID, id)), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"sessions"}, {"sessions", "--output", "json"}, {"presets"}} {
		b.Run(strings.Join(args, "_"), func(b *testing.B) {
			for range b.N {
				out, err := c.command(args...).Output()
				if err != nil {
					b.Fatal(err)
				}
				if args[0] == "sessions" && strings.Count(string(out), "c10e00") != 999 {
					b.Fatalf("listed %d copies", strings.Count(string(out), "c10e00"))
				}
			}
		})
	}
}
