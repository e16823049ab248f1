package wirecorpus

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

// Case is one case file.
type Case struct {
	Name    string   `json:"name"`
	Source  string   `json:"source"`
	Model   string   `json:"model"`
	Turns   []string `json:"turns"`
	Replies []Reply  `json:"replies"`
	Expect  Expect   `json:"expect"`
	Note    string   `json:"note"`

	dir string
}

// Reply is one recorded answer of the server.
type Reply struct {
	File   string `json:"file"`
	Status int    `json:"status"`
	Split  string `json:"split"`
}

// Expect is what must come out. A nil or zero field is not checked.
type Expect struct {
	// Exit is the exit status (0 success, 1 failure); null means the
	// case does not say (its recorded stream stops mid-answer).
	Exit          *int            `json:"exit"`
	ErrorContains []string        `json:"error_contains"`
	RequestCount  int             `json:"request_count"`
	Messages      []MessageExpect `json:"messages"`
	Requests      []RequestExpect `json:"requests"`
}

// MessageExpect is an assistant answer; absent fields are not checked.
type MessageExpect struct {
	Content   *string     `json:"content"`
	Reasoning *string     `json:"reasoning"`
	ToolCalls *[]ToolCall `json:"tool_calls"`
	Finish    *string     `json:"finish"`
	Usage     *Usage      `json:"usage"`
}

// ToolCall is a tool call as a case writes it.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage is token usage as a case writes it (llm.Usage's JSON names).
type Usage struct {
	Input     int `json:"input"`
	Output    int `json:"output"`
	CacheHit  int `json:"cacheHit"`
	Reasoning int `json:"reasoning"`
}

// RequestExpect is what request N (from 1) must carry. Assistant picks the
// assistant message it speaks of (from 1; default the first).
type RequestExpect struct {
	N                       int         `json:"n"`
	Assistant               int         `json:"assistant"`
	ToolCalls               *[]ToolCall `json:"tool_calls"`
	ToolIDsAfter            *[]string   `json:"tool_ids_after"`
	ReasoningContent        *string     `json:"reasoning_content"`
	ReasoningOnAllToolTurns bool        `json:"reasoning_on_all_tool_turns"`
	NoReasoningContent      bool        `json:"no_reasoning_content"`
	// StreamOptions, when set, says whether the request carries
	// stream_options (no case file uses it; our own tests do).
	StreamOptions *bool `json:"stream_options"`
}

// Dir returns the corpus directory, ../shared/wire-corpus next to the
// module root. When it is absent the test is skipped, or failed under
// PTC_REQUIRE_TOOLS=1 (CI).
func Dir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "wire-corpus")
}

// Load reads every case of the corpus at dir, sorted by name.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no cases in %s", filepath.Join(dir, "cases"))
	}
	sort.Strings(files)
	cases := make([]Case, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var c Case
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if c.Name == "" || len(c.Turns) == 0 || len(c.Replies) == 0 {
			return nil, fmt.Errorf("%s: a case needs a name, turns and replies", f)
		}
		c.dir = filepath.Dir(f)
		cases = append(cases, c)
	}
	return cases, nil
}

// Serve starts a replay server answering the n-th request with the case's
// n-th reply. A request beyond the recorded replies gets a 500 saying so
// (a retry of the last attempt lands there); the test is not failed for
// it, the expectations decide.
func Serve(t testing.TB, c Case) *llmtest.Server {
	t.Helper()
	turns := make([]llmtest.Turn, len(c.Replies))
	for i, r := range c.Replies {
		turn, err := r.turn(c.dir)
		if err != nil {
			t.Fatalf("case %s reply %d: %v", c.Name, i+1, err)
		}
		turns[i] = turn
	}
	return llmtest.NewServerFunc(t, func(n int, _ llmtest.Request) llmtest.Turn {
		if n < len(turns) {
			return turns[n]
		}
		return llmtest.Turn{Status: http.StatusInternalServerError,
			Message: fmt.Sprintf("wirecorpus: request %d has no recorded reply (the case has %d)", n+1, len(turns))}
	})
}

func (r Reply) turn(dir string) (llmtest.Turn, error) {
	data, err := os.ReadFile(filepath.Join(dir, r.File))
	if err != nil {
		return llmtest.Turn{}, err
	}
	turn := llmtest.Turn{Raw: data, Status: r.Status}
	if r.Split != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(r.Split, "bytes:"))
		if err != nil || !strings.HasPrefix(r.Split, "bytes:") || n <= 0 {
			return turn, fmt.Errorf("split %q is not bytes:N", r.Split)
		}
		turn.WriteSize = n
	}
	return turn, nil
}

// Replay runs every case of the corpus (from Dir, so it skips or fails
// as Dir does) as a subtest of t named for the case: it starts the case's
// replay server, lets play drive ptc — the adapter or the built binary —
// against the server's URL and say what came out, adds the requests the
// server saw, and reports every way that differs from the case's
// expectations as an error of the subtest.
func Replay(t *testing.T, play func(t *testing.T, c Case, url string) Observed) {
	t.Helper()
	cases, err := Load(Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			srv := Serve(t, c)
			obs := play(t, c, srv.URL)
			obs.Requests = srv.Requests()
			for _, problem := range c.Check(obs) {
				t.Error(problem)
			}
		})
	}
}
