package backend

import (
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	tests := []struct {
		name, model, baseURL string
		vars                 map[string]string
		provider, wantModel  string
		errMatch             string
	}{
		{name: "a script model replays the file", model: "script:../../../examples/hello.json",
			provider: "script", wantModel: "script:../../../examples/hello.json"},
		{name: "a missing script file is an error naming it", model: "script:nope.json", errMatch: "nope.json"},
		{name: "a DeepSeek key picks DeepSeek", vars: map[string]string{"DEEPSEEK_API_KEY": "k"},
			provider: "deepseek", wantModel: "deepseek-v4-flash"},
		{name: "a base URL picks that server", model: "llama3", baseURL: "http://127.0.0.1:1/v1",
			provider: "openai", wantModel: "llama3"},
		{name: "no key at all explains what to set", errMatch: "DEEPSEEK_API_KEY"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, model, err := Open(tc.model, tc.baseURL, env(tc.vars))
			if tc.errMatch != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errMatch) {
					t.Fatalf("err %v, want it to mention %q", err, tc.errMatch)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Name() != tc.provider || model != tc.wantModel {
				t.Fatalf("got %s %q, want %s %q", p.Name(), model, tc.provider, tc.wantModel)
			}
		})
	}
}
