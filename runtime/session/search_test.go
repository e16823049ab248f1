package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

func TestSearchFindsPromptsAnswersCommandsAndTitlesOfOneWorkspace(t *testing.T) {
	ctx := context.Background()
	cat := session.NewCatalog(t.TempDir())
	createClosed(t, cat, "20260101-000001-aaaaaa", "/w", "set up the build")
	createClosed(t, cat, "20260101-000002-bbbbbb", "/w", "what about the cache?\nwe chose ZEBRA-CACHE-DECISION: keep it")
	createClosed(t, cat, "20260101-000003-cccccc", "/other", "ZEBRA-CACHE-DECISION elsewhere")
	o, err := cat.Create(ctx, session.Header{ID: "20260101-000004-dddddd", Settings: session.Settings{Workspace: "/w"}}, session.LogOptions{})
	must(t, err)
	_, err = o.Append(ctx, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks("look around"), Source: session.Source{Kind: "user"}})
	must(t, err)
	_, err = o.Append(ctx, session.TypeToolCall, session.ToolCall{CallID: "c", Name: "bash", Arguments: `{"command":"go test ./zebra/..."}`})
	must(t, err)
	_, err = o.Append(ctx, session.TypeAssistantMessage, session.AssistantMessage{Message: llm.Message{Role: llm.RoleAssistant, Content: "The Kestrel module is fine."}})
	must(t, err)
	_, err = o.AppendDurable(ctx, session.TypeTitle, session.Title{Title: "Checking the zebra package"})
	must(t, err)
	must(t, o.Close())

	hits, err := cat.Search(ctx, "zebra-cache-decision", session.SearchOptions{Workspace: "/w"})
	must(t, err)
	if len(hits) != 1 || hits[0].Summary.Header.ID != "20260101-000002-bbbbbb" || hits[0].Kind != session.FindPrompt || !strings.Contains(hits[0].Snippet, "ZEBRA-CACHE-DECISION") {
		t.Fatalf("hits %+v", hits)
	}
	if strings.Contains(hits[0].Snippet, "\n") {
		t.Fatalf("snippet on several lines: %q", hits[0].Snippet)
	}
	all, err := cat.Search(ctx, "ZEBRA-cache-DECISION", session.SearchOptions{})
	must(t, err)
	if len(all) != 2 {
		t.Fatalf("without a workspace: %+v", all)
	}
	// The title ranks above a command; an answer is found; every word must match.
	z, err := cat.Search(ctx, "zebra", session.SearchOptions{Workspace: "/w"})
	must(t, err)
	if len(z) != 2 || z[0].Summary.Header.ID != "20260101-000004-dddddd" || z[0].Kind != session.FindTitle || z[0].Summary.Title != "Checking the zebra package" {
		t.Fatalf("zebra: %+v", z)
	}
	if k, _ := cat.Search(ctx, "kestrel module", session.SearchOptions{Workspace: "/w"}); len(k) != 1 || k[0].Kind != session.FindAnswer {
		t.Fatalf("answer: %+v", k)
	}
	if k, _ := cat.Search(ctx, "kestrel nothing-like-this", session.SearchOptions{Workspace: "/w"}); len(k) != 0 {
		t.Fatalf("a word that matches nothing: %+v", k)
	}
	if k, _ := cat.Search(ctx, "zebra", session.SearchOptions{Workspace: "/w", Exclude: "20260101-000004-dddddd", Limit: 5}); len(k) != 1 {
		t.Fatalf("exclude: %+v", k)
	}
	if k, _ := cat.Search(ctx, "  ", session.SearchOptions{}); len(k) != 0 {
		t.Fatalf("empty query: %+v", k)
	}
}

func TestSearchBuildsTheIndexOfASessionWithoutOne(t *testing.T) {
	ctx := context.Background()
	cat := session.NewCatalog(t.TempDir())
	createClosed(t, cat, "20260101-000001-aaaaaa", "/w", "first", "the second prompt names OSPREY")
	idx := filepath.Join(cat.SessionDir("20260101-000001-aaaaaa"), "find.jsonl")
	must(t, os.Remove(idx))
	// A torn or hostile index line is skipped, not fatal.
	hits, err := cat.Search(ctx, "osprey", session.SearchOptions{})
	must(t, err)
	if len(hits) != 1 {
		t.Fatalf("hits %+v", hits)
	}
	if _, err := os.Stat(idx); err != nil {
		t.Fatalf("index not rebuilt: %v", err)
	}
	f, err := os.OpenFile(idx, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	fmt.Fprint(f, `{"seq":9,"kind":"prompt","text":"OSPREY torn`)
	must(t, f.Close())
	if hits, err := cat.Search(ctx, "osprey", session.SearchOptions{}); err != nil || len(hits) != 1 {
		t.Fatalf("after a torn line: %+v %v", hits, err)
	}
}

// BenchmarkSearch searches 1 000 closed three-turn sessions (the catalog
// benchmark's) for a word in one of them, through their indexes; the
// baseline is what a scan of the stores costs: loading every session
// read-only and matching its events.
func BenchmarkSearch(b *testing.B) {
	const n = 1000
	home := b.TempDir()
	cat := session.NewCatalog(home)
	o := writeBenchSession(b, cat, "/w")
	must(b, o.Close())
	cloneSessions(b, cat, o.Header().ID, n-1)
	createClosed(b, cat, "20270101-000001-needle", "/w", "the ZEBRA-CACHE-DECISION")
	ctx := context.Background()
	b.Run("index", func(b *testing.B) {
		for range b.N {
			hits, err := cat.Search(ctx, "zebra-cache-decision", session.SearchOptions{Workspace: "/w"})
			must(b, err)
			if len(hits) != 1 {
				b.Fatalf("found %d", len(hits))
			}
		}
	})
	b.Run("scan-stores-baseline", func(b *testing.B) {
		// The clones' stores hold the original's id: load the original n
		// times, which costs what loading n sessions does.
		for range b.N {
			found := 0
			for i := range n + 1 {
				id := o.Header().ID
				if i == n {
					id = "20270101-000001-needle"
				}
				ld, err := cat.Load(ctx, id)
				must(b, err)
				for _, ev := range ld.Events {
					if strings.Contains(strings.ToLower(string(ev.Data)), "zebra-cache-decision") {
						found++
						break
					}
				}
			}
			if found != 1 {
				b.Fatalf("found %d", found)
			}
		}
	})
}
