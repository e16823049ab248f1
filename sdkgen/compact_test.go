package sdkgen

import (
	"math/rand"
	"strings"
	"testing"
)

// TestTheCompactSDKSaysEachThingOnce checks the run_code prompt form on a
// tool set whose tools share results, a list type, an escalation mode and
// long member docs (testdata/schemas/shared.json).
func TestTheCompactSDKSaysEachThingOnce(t *testing.T) {
	tools := loadTools(t, "testdata/schemas/shared.json")
	ts, err := TypeScript(tools, Options{Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int { return strings.Count(ts, s) }
	cases := []struct {
		name string
		ok   bool
	}{
		{"a result three tools share is declared once and referenced", count("export type JobStartResult = {") == 1 && count("Promise<ToolTypes.JobStartResult>") == 3},
		{"a list that is argument and result is declared once", count("export type Items = {") == 1 && count("ToolTypes.Items") == 2},
		{"a long union two tools accept is declared once", count(`export type Mode = "read-only"`) == 1 && count("mode?: ToolTypes.Mode;") == 2},
		{"a long member doc is written once, then referred to", count("Why the wider mode is needed") == 1 && count("/** As in job_start. */") == 2},
		{"arguments stay inline, so optional ones stay optional", strings.Contains(ts, "job_stop(args?: {")},
		{"an open argument object is not merged with a closed result of its shape", strings.Contains(ts, "} & Open;") && strings.Contains(ts, "Promise<{ entry: { name: string; size?: number; kind?: string } }>")},
		{"a small object without member docs is one line", strings.Contains(ts, "job_status(args: { job_id: string })")},
		{"an object with member docs keeps a line per member", strings.Contains(ts, "    /** What it printed so far. */\n    output?: string;")},
		{"the bracket hint is left out when every name is an identifier", !strings.Contains(ts, `tools["my-tool"]`)},
		{"the full SDK keeps every type inline", func() bool {
			full, err := TypeScript(tools, Options{})
			return err == nil && !strings.Contains(full, "JobStartResult") && !strings.Contains(full, "As in")
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				t.Fatalf("not so in:\n%s", ts)
			}
		})
	}
	t.Run("the text does not depend on the order the tools come in", func(t *testing.T) {
		shuffled := append([]Tool(nil), tools...)
		rand.New(rand.NewSource(1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again, err := TypeScript(shuffled, Options{Compact: true})
		if err != nil || again != ts {
			t.Fatalf("a reordered tool set renders differently (%v)", err)
		}
	})
	t.Run("a tool name that is not an identifier brings the bracket hint back", func(t *testing.T) {
		odd, err := TypeScript([]Tool{{Name: "my-tool"}}, Options{Compact: true})
		if err != nil || !strings.Contains(odd, `tools["my-tool"](args)`) {
			t.Fatalf("%v\n%s", err, odd)
		}
	})
}

func TestJoinDocKeepsListsAndParagraphs(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		want int
	}{
		{"a description and its constraints join", []string{"Shell command.", "Minimum length: 1."}, 1},
		{"two paragraphs stay apart", []string{"One.", "", "Two."}, 3},
		{"a bullet list stays a list", []string{"Rules:", "- one", "- two"}, 3},
		{"a numbered list stays a list", []string{"Steps:", "1. one", "2. two"}, 3},
		{"an indented line stays", []string{"Example:", "  code()"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := joinDoc(c.in); len(got) != c.want {
				t.Fatalf("%q → %q", c.in, got)
			}
		})
	}
}
