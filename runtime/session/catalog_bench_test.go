package session_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// A realistic small session for the catalog benchmarks: three turns of
// 31 events each (a prompt, twenty streamed chunks, a tool call whose
// result is 2 kB, two answers, turn and step marks), five of them
// durable per turn, as the agent appends them.
type benchEvent struct {
	typ     string
	data    json.RawMessage
	durable bool
}

func benchTurn(turn int) []benchEvent {
	var out []benchEvent
	add := func(typ string, data any, durable bool) { out = append(out, benchEvent{typ, mustJSON(data), durable}) }
	id := fmt.Sprintf("call-%d", turn)
	add(session.TypeTurnStart, session.TurnStart{Turn: turn}, false)
	add(session.TypeStepStart, session.StepMark{Turn: turn, Step: 1}, false)
	add(session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks("Please fix the failing test in parser_test.go"), Source: session.Source{Kind: "user"}}, true)
	for range 10 {
		add(session.TypeAssistantChunk, session.AssistantChunk{Turn: turn, Step: 1, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "Let me look "}}, false)
	}
	add(session.TypeAssistantMessage, session.AssistantMessage{Turn: turn, Step: 1, Finish: llm.FinishToolCalls,
		Message: llm.Message{Role: llm.RoleAssistant, Content: "I will read the file.", ToolCalls: []llm.ToolCall{{ID: id, Name: "read", Arguments: `{"file_path":"parser_test.go"}`}}}}, false)
	add(session.TypeToolCall, session.ToolCall{Turn: turn, Step: 1, CallID: id, Name: "read", Arguments: `{"file_path":"parser_test.go"}`}, true)
	add(session.TypeToolResult, session.ToolResult{Turn: turn, Step: 1, CallID: id, Name: "read", Content: session.TextBlocks(strings.Repeat("package parser\n\nfunc TestParse(t *testing.T) {}\n", 40))}, false)
	add(session.TypeStepEnd, session.StepMark{Turn: turn, Step: 1}, true)
	add(session.TypeStepStart, session.StepMark{Turn: turn, Step: 2}, false)
	for range 10 {
		add(session.TypeAssistantChunk, session.AssistantChunk{Turn: turn, Step: 2, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "The test now "}}, false)
	}
	add(session.TypeAssistantMessage, session.AssistantMessage{Turn: turn, Step: 2, Finish: llm.FinishStop,
		Message: llm.Message{Role: llm.RoleAssistant, Content: "Fixed: the parser now accepts empty input."}}, false)
	add(session.TypeStepEnd, session.StepMark{Turn: turn, Step: 2}, true)
	add(session.TypeTurnEnd, session.TurnEnd{Turn: turn, Reason: session.ReasonCompleted}, true)
	return out
}

var benchSession = append(append(benchTurn(1), benchTurn(2)...), benchTurn(3)...)

// writeBenchSession creates a session in cat, appends benchSession and
// leaves it open.
func writeBenchSession(tb testing.TB, cat *session.Catalog, cwd string) *session.Owned {
	ctx := context.Background()
	o, err := cat.Create(ctx, session.Header{Settings: session.Settings{Workspace: cwd, Preset: "ptc", Model: "m"}}, session.LogOptions{})
	must(tb, err)
	for _, e := range benchSession {
		if e.durable {
			_, err = o.AppendDurable(ctx, e.typ, e.data)
		} else {
			_, err = o.Append(ctx, e.typ, e.data)
		}
		must(tb, err)
	}
	return o
}

// BenchmarkSessionLifecycle is what a `ptc run` process does to its store:
// create a session, append a three-turn session, close. The baseline
// writes the same events as JSON lines to a plain file with as many
// fsyncs. Disk per closed session is reported as disk-B/session.
func BenchmarkSessionLifecycle(b *testing.B) {
	b.Run("catalog", func(b *testing.B) {
		home := b.TempDir()
		cat := session.NewCatalog(home)
		for range b.N {
			must(b, writeBenchSession(b, cat, "/w").Close())
		}
		b.StopTimer()
		b.ReportMetric(float64(dirBytes(b, cat.Dir()))/float64(b.N), "disk-B/session")
	})
	b.Run("single-store", func(b *testing.B) {
		// Round 1's layout: every session in one store of the home, opened
		// and closed by each process.
		dir := b.TempDir()
		ctx := context.Background()
		for range b.N {
			st, err := session.OpenBadger(dir, session.BadgerOptions{})
			must(b, err)
			log, err := session.Create(ctx, st, session.Header{Settings: session.Settings{Workspace: "/w"}}, session.LogOptions{})
			must(b, err)
			for _, e := range benchSession {
				if e.durable {
					_, err = log.AppendDurable(ctx, e.typ, e.data)
				} else {
					_, err = log.Append(ctx, e.typ, e.data)
				}
				must(b, err)
			}
			must(b, log.Sync(ctx))
			must(b, st.Close())
		}
		b.StopTimer()
		b.ReportMetric(float64(dirBytes(b, dir))/float64(b.N), "disk-B/session")
	})
	b.Run("file-baseline", func(b *testing.B) {
		dir := b.TempDir()
		for i := range b.N {
			f, err := os.Create(filepath.Join(dir, strconv.Itoa(i)+".jsonl"))
			must(b, err)
			w := bufio.NewWriter(f)
			for seq, e := range benchSession {
				fmt.Fprintf(w, `{"seq":%d,"type":%q,"data":%s}`+"\n", seq, e.typ, e.data)
				if e.durable {
					must(b, w.Flush())
					must(b, f.Sync())
				}
			}
			must(b, w.Flush())
			must(b, f.Close())
		}
	})
}

// dirBytes is the disk space allocated under dir.
func dirBytes(tb testing.TB, dir string) int64 {
	out, err := exec.Command("du", "-sk", dir).Output()
	must(tb, err)
	kb, err := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	must(tb, err)
	return kb * 1024
}

// BenchmarkCatalogList lists 1 000 closed sessions (made by copying one
// real session directory under new ids, with its record rewritten).
// The baseline only reads the 1 000 record files.
func BenchmarkCatalogList(b *testing.B) {
	const n = 1000
	home := b.TempDir()
	cat := session.NewCatalog(home)
	o := writeBenchSession(b, cat, "/w")
	must(b, o.Close())
	cloneSessions(b, cat, o.Header().ID, n-1)
	ctx := context.Background()
	b.Run("catalog", func(b *testing.B) {
		for range b.N {
			list, err := cat.List(ctx, session.ListOptions{})
			must(b, err)
			if len(list) != n {
				b.Fatalf("listed %d", len(list))
			}
		}
	})
	b.Run("read-records-baseline", func(b *testing.B) {
		for range b.N {
			entries, err := os.ReadDir(cat.Dir())
			must(b, err)
			for _, e := range entries {
				_, err := os.ReadFile(filepath.Join(cat.Dir(), e.Name(), "meta.json"))
				must(b, err)
			}
		}
	})
}

// cloneSessions copies session id's directory n times under new ids.
func cloneSessions(tb testing.TB, cat *session.Catalog, id string, n int) {
	src := cat.SessionDir(id)
	meta, err := os.ReadFile(filepath.Join(src, "meta.json"))
	must(tb, err)
	for i := range n {
		nid := fmt.Sprintf("20260101-%06d-clone0", i)
		dst := cat.SessionDir(nid)
		must(tb, exec.Command("cp", "-r", src, dst).Run())
		must(tb, os.WriteFile(filepath.Join(dst, "meta.json"), []byte(strings.ReplaceAll(string(meta), id, nid)), 0o600))
	}
}

// rssEnv makes the test binary open the number of sessions it names at
// once, each with benchSession written, and print its resident memory
// before and after.
const rssEnv = "PTC_SESSION_TEST_RSS"

func init() {
	if v := os.Getenv(rssEnv); v != "" {
		n, _ := strconv.Atoi(v)
		before := rssKB()
		cat := session.NewCatalog(os.Getenv(rssEnv + "_HOME"))
		var open []*session.Owned
		for range n {
			open = append(open, writeBenchSession(nopTB{}, cat, "/w"))
		}
		fmt.Println(before, rssKB())
		for _, o := range open {
			_ = o.Close()
		}
		os.Exit(0)
	}
}

// nopTB lets writeBenchSession run outside a test.
type nopTB struct{ testing.TB }

func (nopTB) Helper() {}
func (nopTB) Fatal(args ...any) {
	fmt.Fprintln(os.Stderr, args...)
	os.Exit(1)
}

func rssKB() int {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// BenchmarkOpenSessionsRSS reports the resident memory each open session
// adds to a process (a child opens 1 and 20 sessions at once, each with a
// three-turn session written).
func BenchmarkOpenSessionsRSS(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc")
	}
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("%d-open", n), func(b *testing.B) {
			var per float64
			for range b.N {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), rssEnv+"="+strconv.Itoa(n), rssEnv+"_HOME="+b.TempDir())
				out, err := cmd.Output()
				must(b, err)
				var before, after float64
				if _, err := fmt.Sscan(string(out), &before, &after); err != nil {
					b.Fatalf("child said %q", out)
				}
				per = (after - before) / float64(n)
			}
			b.ReportMetric(per, "kB-RSS/session")
		})
	}
}
