package session

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// SearchOptions narrow a search. Workspace, when set, keeps only that
// workspace's sessions (a model searching from a session never sees
// another project's); Exclude leaves one session out (the searching one);
// Limit caps the hits (default 10, at most SearchMaxLimit).
type SearchOptions struct {
	Workspace string
	Exclude   string
	Limit     int
}

// Search bounds.
const (
	SearchDefaultLimit = 10
	SearchMaxLimit     = 50
	searchMaxTerms     = 8
	snippetMax         = 240
)

// Hit is one session a search found: its listing record, its score (the
// weights of the kinds of text that matched, see kindWeight), and the
// best matching text: its event (Seq, -1 for the title of a record), its
// kind and a snippet around the match, on one line.
type Hit struct {
	Summary Summary `json:"summary"`
	Score   int     `json:"score"`
	Seq     int64   `json:"seq"`
	Kind    string  `json:"kind"`
	Snippet string  `json:"snippet"`
}

// kindWeight ranks where a term matched: a title says most about what a
// session was, then what the user asked, then the answers and commands.
func kindWeight(kind string) int {
	switch kind {
	case FindTitle:
		return 4
	case FindPrompt:
		return 3
	case FindAnswer:
		return 2
	}
	return 1
}

// Search finds the sessions whose title, prompts, answers or tool
// commands contain every word of query (case-insensitive), best first
// (score, then the most recently updated). It reads each session's
// listing record and search index (findindex.go), never a store, except
// to build the index of a session from before indexes that no process
// holds. An empty query finds nothing.
func (c *Catalog) Search(ctx context.Context, query string, opts SearchOptions) ([]Hit, error) {
	terms := searchTerms(query)
	if len(terms) == 0 {
		return nil, nil
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = SearchDefaultLimit
	}
	limit = min(limit, SearchMaxLimit)
	if err := c.migrate(); err != nil && !isFault(err) {
		return nil, err
	}
	ids, err := c.ids()
	if err != nil {
		return nil, err
	}
	found := make([]*Hit, len(ids))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(listWorkers, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if ctx.Err() == nil && ids[i] != opts.Exclude {
					found[i] = c.searchOne(ctx, ids[i], terms, opts.Workspace)
				}
			}
		}()
	}
	for i := range ids {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var hits []Hit
	for _, h := range found {
		if h != nil {
			hits = append(hits, *h)
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return summaryBefore(hits[i].Summary, hits[j].Summary)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// searchTerms are the distinct lower-cased words of query, at most
// searchMaxTerms.
func searchTerms(query string) []string {
	var terms []string
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if !slices.Contains(terms, w) && len(terms) < searchMaxTerms {
			terms = append(terms, w)
		}
	}
	return terms
}

// searchOne matches one session, nil when it is not a hit.
func (c *Catalog) searchOne(ctx context.Context, id string, terms []string, workspace string) *Hit {
	sum, made := c.summary(ctx, id)
	if !made || (workspace != "" && sum.Settings.Workspace != workspace) {
		return nil
	}
	dir := c.SessionDir(id)
	entries, ok := readFind(dir)
	if !ok && !sum.Owner.Live {
		// A session from before indexes: loading it writes its index.
		if _, err := c.load(ctx, id, true); err == nil {
			entries, _ = readFind(dir)
		}
	}
	if sum.Title != "" && !slices.ContainsFunc(entries, func(en FindEntry) bool { return en.Kind == FindTitle }) {
		// The first line of the first prompt, standing in for a title.
		entries = append(entries, FindEntry{Seq: -1, Kind: FindTitle, Text: sum.Title})
	}
	return matchEntries(sum, entries, terms)
}

// matchEntries scores a session's texts against terms: every term must
// match somewhere; each text adds its kind's weight per term it holds.
// The best text (most terms, then weight, then the earliest) gives the
// snippet.
func matchEntries(sum Summary, entries []FindEntry, terms []string) *Hit {
	seen := make([]bool, len(terms))
	score, best, bestTerms, bestAt := 0, -1, 0, 0
	for i, en := range entries {
		lower := strings.ToLower(en.Text)
		n, at := 0, -1
		for t, term := range terms {
			if k := strings.Index(lower, term); k >= 0 {
				seen[t] = true
				n++
				if at < 0 {
					at = k
				}
			}
		}
		if n == 0 {
			continue
		}
		score += n * kindWeight(en.Kind)
		if best < 0 || n > bestTerms || (n == bestTerms && kindWeight(en.Kind) > kindWeight(entries[best].Kind)) {
			best, bestTerms, bestAt = i, n, at
		}
	}
	for _, ok := range seen {
		if !ok {
			return nil
		}
	}
	en := entries[best]
	return &Hit{Summary: sum, Score: score, Seq: en.Seq, Kind: en.Kind, Snippet: snippet(en.Text, bestAt)}
}

// snippet is about snippetMax bytes of text around byte at, on one line.
// at indexes the lower-cased text, which has the same length as text for
// almost all text; it is only moved to a character boundary.
func snippet(text string, at int) string {
	at = min(max(at, 0), len(text))
	start := max(0, at-snippetMax/3)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	end := min(len(text), start+snippetMax)
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end--
	}
	s := strings.Join(strings.Fields(text[start:end]), " ")
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}
