package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

const countSchema = `{"type": "object", "properties": {"files": {"type": "integer"}, "ok": {"type": "boolean"}}, "required": ["files", "ok"], "additionalProperties": false}`

func schemaFile(t *testing.T, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// structuredFinal is the --output json object with its result.
type structuredFinal struct {
	SessionID string          `json:"session_id"`
	Reason    string          `json:"reason"`
	Failure   string          `json:"failure"`
	Result    json.RawMessage `json:"result"`
}

func TestOutputSchemaRetriesOnceAndPrintsTheResult(t *testing.T) {
	c := newCLI(t)
	model := writeScript(t, reply("There are 3 files and all is well."), reply("```json\n{\"files\": 3, \"ok\": true}\n```"))
	out := c.ok("run", "--workspace", t.TempDir(), "--model", "script:"+model, "--output", "json", "--output-schema", schemaFile(t, countSchema), "count the files")
	var f structuredFinal
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(f.Result, &v); err != nil || v["files"] != float64(3) || v["ok"] != true {
		t.Fatalf("result must be the object: %s (%v)", out, err)
	}
	ev := c.show(f.SessionID).Events
	retries := userTexts(t, ev, "structured_output")
	if len(retries) != 1 || !strings.Contains(retries[0], "not valid JSON") {
		t.Fatalf("one retry quoting the error: %q", retries)
	}
	hdr := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(ev, session.TypeRequestHeader)[0])
	if !strings.Contains(hdr.System, "Structured output") || !strings.Contains(hdr.System, `"required":["files","ok"]`) {
		t.Fatalf("the system prompt lacks the structured_output section")
	}
}

func TestOutputSchemaFailsAfterASecondInvalidAnswer(t *testing.T) {
	c := newCLI(t)
	model := writeScript(t, reply(`{"files": "three"}`), reply(`{"files": 3}`), reply("never asked"))
	stdout, stderr, code := c.run("run", "--workspace", t.TempDir(), "--model", "script:"+model, "--output", "json", "--output-schema", schemaFile(t, countSchema), "count")
	var f structuredFinal
	if err := json.Unmarshal([]byte(stdout), &f); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 1 || f.Result != nil || !strings.Contains(f.Failure, "/ok: missing required property") || !strings.Contains(stderr, "after one retry") {
		t.Fatalf("exit %d, %s\n%s", code, stdout, stderr)
	}
	if n := len(userTexts(t, c.show(f.SessionID).Events, "structured_output")); n != 1 {
		t.Fatalf("%d retries, want exactly one", n)
	}
}

func TestOutputSchemaRefusesUnsupportedSchemas(t *testing.T) {
	c := newCLI(t)
	_, stderr, code := c.run("run", "--model", "script:"+writeScript(t, reply("x")), "--output-schema", schemaFile(t, `{"type": "object", "$ref": "#/x"}`), "hi")
	if code == 0 || !strings.Contains(stderr, `keyword "$ref" is not supported`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
