package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestArgumentValidation(t *testing.T) {
	run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{})
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	cases := []struct {
		name, raw, code string
		contains        []string
	}{
		{"valid arguments run the tool", `{"file_path":"go.mod"}`, "", []string{"contents of go.mod"}},
		{"empty arguments mean an empty object", ``, CodeInvalidArgs, []string{"/file_path: missing required property"}},
		{"whitespace arguments mean an empty object", "  \n", CodeInvalidArgs, []string{"/file_path: missing required property"}},
		{"every violation is listed in one line", `{"limit":"ten"}`, CodeInvalidArgs,
			[]string{"Error: invalid arguments for read: /file_path: missing required property; /limit: expected integer, got string"}},
		{"invalid JSON quotes the parse error", `{"file_path":`, CodeInvalidArgs, []string{"not valid JSON", "unexpected EOF"}},
		{"trailing data is invalid JSON", `{"file_path":"a"} {}`, CodeInvalidArgs, []string{"not valid JSON"}},
		{"null is not an object", `null`, CodeInvalidArgs, []string{"expected a JSON object, got null"}},
		{"an array is not an object", `[1]`, CodeInvalidArgs, []string{"got array"}},
		{"a string is not an object", `"go.mod"`, CodeInvalidArgs, []string{"got string"}},
		{"extra fields are named", `{"file_path":"a","mode":1,"x/y":2}`, CodeInvalidArgs,
			[]string{"/mode: unknown property", "/x~1y: unknown property"}},
		{"wrong nested types are reported", `{"file_path":["a"],"limit":0}`, CodeInvalidArgs,
			[]string{"/file_path: expected string, got array", "/limit: must be >= 1"}},
		{"deep nesting is refused without a crash", `{"file_path":"a","n":` + deep + `}`, CodeInvalidArgs, nil},
		{"a huge string is accepted", `{"file_path":"` + strings.Repeat("x", 1<<20) + `"}`, "", []string{"contents of xxx"}},
		{"arguments past MaxArgBytes are refused before they are parsed or run", `{"file_path":"` + strings.Repeat("x", MaxArgBytes) + `"}`, CodeInvalidArgs,
			[]string{"8388624 bytes of arguments, past the limit of 8388608 (8 MiB)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run.Dispatch(context.Background(), Call{ID: "c1", Name: "read", Raw: c.raw})
			if code(res) != c.code {
				t.Fatalf("code = %q, want %q; content %.300s", code(res), c.code, res.Content)
			}
			if c.code != "" && (!res.IsError || !strings.HasPrefix(res.Content, "Error: ")) {
				t.Fatalf("failure not marked as error: %+v", res)
			}
			for _, want := range c.contains {
				if !strings.Contains(res.Content, want) {
					t.Errorf("content %.300q does not contain %q", res.Content, want)
				}
			}
		})
	}
}

func TestViolationMessagesStayShort(t *testing.T) {
	run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{})
	var b strings.Builder
	b.WriteString(`{"file_path":"a"`)
	for i := range 100 {
		b.WriteString(`,"extra` + strings.Repeat("z", i) + `":1`)
	}
	b.WriteString("}")
	res := run.Dispatch(context.Background(), Call{ID: "c1", Name: "read", Raw: b.String()})
	if code(res) != CodeInvalidArgs || !strings.Contains(res.Content, "and 80 more") || len(res.Content) > 6000 {
		t.Fatalf("got %d bytes: %.400s", len(res.Content), res.Content)
	}
}

func TestBadSchemaIsARegistrationError(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"invalid JSON", Spec{Name: "bad", InputSchema: []byte(`{`)}, "tool bad: input schema is not valid JSON"},
		{"wrong keyword type", Spec{Name: "bad", InputSchema: []byte(`{"type":12}`)}, "tool bad: input schema does not compile"},
		{"remote reference", Spec{Name: "bad", InputSchema: []byte(`{"$ref":"https://example.com/s.json"}`)}, "tool bad"},
		{"bad output schema", Spec{Name: "bad", InputSchema: looseSpec, OutputSchema: []byte(`{"minimum":"x"}`)}, "tool bad: output schema does not compile"},
		{"missing input schema", Spec{Name: "bad"}, "tool bad has no input schema"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := New(c.spec, func(context.Context, Call, struct{}) (any, error) { return nil, nil })
			_, err := NewRegistry(PresentNative, tool)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	t.Run("duplicate names are refused", func(t *testing.T) {
		if _, err := NewRegistry(PresentNative, readTool(), readTool()); err == nil || !strings.Contains(err.Error(), "registered twice") {
			t.Fatalf("err = %v", err)
		}
	})
}

func FuzzDispatchArguments(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `{"file_path":"a","limit":3}`, `{"limit":1e400}`, `[`, `{"file_path":"\ud800"}`} {
		f.Add(s)
	}
	run := NewRunner(mustRegistry(f, PresentNative, readTool()), RunnerConfig{})
	f.Fuzz(func(t *testing.T, raw string) {
		res := run.Dispatch(context.Background(), Call{ID: "c", Name: "read", Raw: raw})
		if res.IsError && code(res) != CodeInvalidArgs {
			t.Fatalf("unexpected failure %q for %q", res.Content, raw)
		}
	})
}

func TestDecodeJSONRefusesTrailingData(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{`{"a":1}`, true},
		{" {\"a\":1} \n\t\r ", true},
		{`"s"`, true},
		{`12`, true},
		{`{"a":1} x`, false},
		{`{}{}`, false},
		{`{} {}`, false},
		{`[1] 2`, false},
		{`12 13`, false},
		{`{"a":`, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			_, err := decodeJSON([]byte(tc.in))
			if (err == nil) != tc.ok {
				t.Fatalf("decodeJSON(%q) error %v, want ok=%v", tc.in, err, tc.ok)
			}
		})
	}
}
