package sdkgen

import "testing"

// BenchmarkTypeScript renders the three MCP servers' tools (36 tools) as
// the compact run_code section, the hot path when a prompt is built.
func BenchmarkTypeScript(b *testing.B) {
	var tools []Tool
	for _, f := range []string{"mcp_filesystem", "mcp_memory", "mcp_everything", "builtin"} {
		tools = append(tools, loadTools(b, "testdata/schemas/"+f+".json")...)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TypeScript(tools, Options{Compact: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPython(b *testing.B) {
	tools := loadTools(b, "testdata/schemas/mcp_filesystem.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Python(tools, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
