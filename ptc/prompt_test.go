package ptc

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestSDKSectionIsSortedAndStable(t *testing.T) {
	specs := []tools.Spec{
		{Name: "add", Description: "Adds two integers.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`)},
		{Name: "echo", Description: "Echoes.", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
	}
	a, err := SDKSectionFromSpecs(specs)
	if err != nil {
		t.Fatal(err)
	}
	reversed := append([]tools.Spec{{Name: tools.RunCodeName}}, specs...)
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	b, err := SDKSectionFromSpecs(reversed)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatal("SDK text depends on tool order")
	}
	if !strings.Contains(a, "add") || strings.Contains(a, "run_code(") || !strings.HasPrefix(a, sdkIntro) {
		t.Fatalf("SDK section:\n%s", a)
	}
}

func TestSectionsUseTheOrderBands(t *testing.T) {
	secs, err := Sections(nil)
	if err != nil {
		t.Fatal(err)
	}
	if secs[0].Order != prompt.OrderPTCRule || secs[1].Order != prompt.OrderSDK {
		t.Fatalf("orders %d, %d", secs[0].Order, secs[1].Order)
	}
	if !strings.Contains(Rule(), "run_code") {
		t.Fatal("rule does not name run_code")
	}
}
