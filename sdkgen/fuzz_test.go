package sdkgen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSchema feeds arbitrary bytes as a tool's input and output schema:
// rendering must never panic or hang, and must be byte-stable.
func FuzzSchema(f *testing.F) {
	for _, t := range randomTools(11, 40) {
		f.Add([]byte(t.InputSchema))
	}
	files, _ := filepath.Glob("testdata/schemas/*.json")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		tools, err := ParseTools(data, path)
		if err != nil {
			f.Fatal(err)
		}
		for _, t := range tools {
			f.Add([]byte(t.InputSchema))
		}
	}
	f.Add([]byte(`{"$ref":"#"}`))
	f.Add([]byte(`{"$defs":{"A":{"$ref":"#/$defs/A"}},"$ref":"#/$defs/A"}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		tools := []Tool{{Name: "t", InputSchema: schema, OutputSchema: schema}, {Name: "u-v", InputSchema: schema}}
		for _, v := range variants {
			a, err := v.render(tools)
			if err != nil {
				return // malformed schemas are errors, not panics
			}
			b, _ := v.render(tools)
			if a != b {
				t.Fatalf("%s output is not byte-stable", v.ext)
			}
		}
	})
}

// FuzzParseTools feeds arbitrary bytes to the tool-file reader.
func FuzzParseTools(f *testing.F) {
	raw, _ := json.Marshal(randomTools(3, 3))
	f.Add(raw)
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`))
	f.Add([]byte(`[{"type":"function","function":{"name":"f","parameters":{}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tools, err := ParseTools(data, "fuzz.json")
		if err != nil {
			return
		}
		_, _ = TypeScript(tools, Options{})
		_, _ = Python(tools, Options{})
	})
}
