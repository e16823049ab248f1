package openai

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readEvents(t *testing.T, r io.Reader) ([]string, error) {
	t.Helper()
	s := newSSEReader(r)
	var out []string
	for {
		data, err := s.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"events end at blank lines", "data: a\n\ndata: b\n\n", []string{"a", "b"}},
		{"several data lines join with newlines", "data: a\ndata: b\n\n", []string{"a\nb"}},
		{"the space after the colon is optional", "data:a\n\n", []string{"a"}},
		{"comments and other fields are skipped", ": hi\nevent: x\ndata: a\nid: 1\n\n", []string{"a"}},
		{"empty data is no event", "data:\n\ndata: \n\ndata: a\n\n", []string{"a"}},
		{"CRLF endings", "data: a\r\n\r\n", []string{"a"}},
		{"a complete last line without its blank line counts", "data: a\n", []string{"a"}},
		{"an unfinished last line is dropped", "data: a\n\ndata: b", []string{"a"}},
		{"a line longer than the buffer is read whole", "data: " + strings.Repeat("x", 10000) + "\n\n", []string{strings.Repeat("x", 10000)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				got, err := readEvents(t, r)
				if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
					t.Fatalf("events %q err %v, want %q", got, err, tc.want)
				}
			}
		})
	}
}

func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: a\n\n: c\ndata: b\r\n\r\ndata: [DONE]\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		whole, err1 := readEvents(t, bytes.NewReader(in))
		split, err2 := readEvents(t, iotest.OneByteReader(bytes.NewReader(in)))
		if (err1 == nil) != (err2 == nil) || strings.Join(whole, "\x00") != strings.Join(split, "\x00") {
			t.Fatalf("reading at once gave %q %v, byte by byte %q %v", whole, err1, split, err2)
		}
		for _, e := range whole {
			if e == "" {
				t.Fatal("an empty event was returned")
			}
		}
	})
}
