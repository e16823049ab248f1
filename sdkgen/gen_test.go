package sdkgen

import (
	"encoding/json"
	"fmt"
	"math/rand"
)

// schemaGen makes random but well-formed JSON Schemas that exercise every
// keyword the generator reads, for the fuzz seeds and the compiled corpus.
type schemaGen struct {
	r    *rand.Rand
	defs []string
}

var oddTexts = []string{"plain", "two words", "say \"hi\"", "back\\slash", "ends */ here", "line\nbreak",
	"tab\there", "ünï", "sep\u2028x", "", "class", "from", "__proto__", "123", "a-b", "$x", "None", "str"}

func (g *schemaGen) text() string { return oddTexts[g.r.Intn(len(oddTexts))] }

func (g *schemaGen) scalar() any {
	switch g.r.Intn(5) {
	case 0:
		return g.text()
	case 1:
		return g.r.Intn(100) - 50
	case 2:
		return float64(g.r.Intn(1000)) / 8
	case 3:
		return g.r.Intn(2) == 0
	}
	return nil
}

func (g *schemaGen) schema(depth int) any {
	if g.r.Intn(12) == 0 {
		return g.r.Intn(3) != 0 // boolean schema
	}
	s := map[string]any{}
	n := 14
	if depth <= 0 {
		n = 7
	}
	switch g.r.Intn(n) {
	case 0:
		s["type"] = "string"
	case 1:
		s["type"] = "number"
	case 2:
		s["type"] = "integer"
	case 3:
		s["type"] = "boolean"
	case 4:
		s["enum"] = []any{g.scalar(), g.scalar(), g.scalar()}
	case 5:
		s["const"] = g.scalar()
	case 6:
		if len(g.defs) > 0 {
			s["$ref"] = "#/$defs/" + g.defs[g.r.Intn(len(g.defs))]
		} else {
			s["type"] = "null"
		}
	case 7, 8:
		g.object(s, depth-1)
	case 9:
		g.array(s, depth-1)
	case 10:
		s["anyOf"] = []any{g.schema(depth - 1), g.schema(depth - 1)}
	case 11:
		s["oneOf"] = []any{g.schema(depth - 1), g.schema(depth - 1), g.schema(depth - 1)}
	case 12:
		s["allOf"] = []any{g.objectSchema(depth - 1), g.objectSchema(depth - 1)}
	case 13:
		s["type"] = []any{"string", "null", "object", "array"}[g.r.Intn(4):]
		s["properties"] = map[string]any{"p": g.schema(depth - 1)}
		s["items"] = g.schema(depth - 1)
	}
	g.annotate(s)
	return s
}

func (g *schemaGen) objectSchema(depth int) any {
	s := map[string]any{}
	g.object(s, depth)
	return s
}

func (g *schemaGen) object(s map[string]any, depth int) {
	s["type"] = "object"
	props := map[string]any{}
	var req []string
	for i := g.r.Intn(5); i > 0; i-- {
		k := g.text()
		props[k] = g.schema(depth)
		if g.r.Intn(2) == 0 {
			req = append(req, k)
		}
	}
	s["properties"] = props
	if req != nil {
		s["required"] = req
	}
	switch g.r.Intn(5) {
	case 0:
		s["additionalProperties"] = false
	case 1:
		s["additionalProperties"] = true
	case 2:
		s["additionalProperties"] = g.schema(depth)
	case 3:
		s["patternProperties"] = map[string]any{"^x-": g.schema(depth)}
	}
}

func (g *schemaGen) array(s map[string]any, depth int) {
	s["type"] = "array"
	switch g.r.Intn(4) {
	case 0:
		s["items"] = g.schema(depth)
	case 1:
		s["prefixItems"] = []any{g.schema(depth), g.schema(depth)}
		s["items"] = []any{false, true, g.schema(depth)}[g.r.Intn(3)]
		s["minItems"] = g.r.Intn(3)
	case 2:
		s["items"] = []any{g.schema(depth)}
		s["additionalItems"] = g.schema(depth)
	}
}

func (g *schemaGen) annotate(s map[string]any) {
	if g.r.Intn(4) == 0 {
		s["description"] = g.text()
	}
	if g.r.Intn(8) == 0 {
		s["default"] = g.scalar()
	}
	if g.r.Intn(10) == 0 {
		s["nullable"] = true
	}
	if g.r.Intn(12) == 0 {
		s["not"] = map[string]any{"type": "null"}
	}
	if g.r.Intn(12) == 0 {
		s["deprecated"] = true
	}
}

// randomTools returns n deterministic random tools; each input schema has
// $defs that may reference each other and themselves.
func randomTools(seed int64, n int) []Tool {
	g := &schemaGen{r: rand.New(rand.NewSource(seed))}
	var tools []Tool
	for i := 0; i < n; i++ {
		g.defs = []string{"Node", "Item", "Other"}[:g.r.Intn(4)]
		defs := map[string]any{}
		for _, d := range g.defs {
			defs[d] = g.schema(3)
		}
		in := g.objectSchema(3).(map[string]any)
		if len(defs) > 0 {
			in["$defs"] = defs
		}
		inRaw, _ := json.Marshal(in)
		t := Tool{Name: fmt.Sprintf("t%03d_%s", i, g.text()), Description: g.text(), InputSchema: inRaw}
		if g.r.Intn(2) == 0 {
			t.OutputSchema, _ = json.Marshal(g.schema(3))
		}
		tools = append(tools, t)
	}
	return tools
}
