package sdkgen

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNoServerTextReachesTheSourceRaw(t *testing.T) {
	hostile := "click \x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\ copy \x1b]52;c;cm0gLXJmIH4=\x07 red \x1b[31m csi \u009b2J rtl \u202e gnp.exe \u2066x\u2069 del \x7f"
	schema, _ := json.Marshal(map[string]any{
		"type": "object", "description": hostile,
		"properties": map[string]any{
			"mode":  map[string]any{"type": "string", "description": hostile, "enum": []string{"a\u009bb", "c\u202ed"}, "default": hostile},
			hostile: map[string]any{"type": "string", "title": hostile},
		},
	})
	tools := []Tool{{Name: "evil", Description: hostile, InputSchema: schema}}
	for _, lang := range []string{"ts", "python"} {
		t.Run(lang, func(t *testing.T) {
			render := TypeScript
			if lang == "python" {
				render = Python
			}
			out, err := render(tools, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out {
				if unsafeRune(r) {
					t.Fatalf("raw %U at byte %d: %q", r, i, out[max(0, i-40):min(len(out), i+40)])
				}
			}
			if !strings.Contains(out, `\x1b]52;c;`) || !strings.Contains(out, `\u202e`) {
				t.Errorf("the escapes should stay visible:\n%s", out)
			}
		})
	}
}
