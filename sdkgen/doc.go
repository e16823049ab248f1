// Package sdkgen turns tool definitions (name, description, input and
// output JSON Schema) into a typed SDK: TypeScript declarations for
// run_code programs and tool authors, and Python typing stubs.
//
//	[]Tool ──build──▶ model (types + named $ref targets) ──▶ TypeScript(...) / Python(...)
//	  ▲
//	ParseTools: one tool, an array, or an MCP tools/list result
//
// The API is tools in, text out. Output is byte-stable: tools are sorted
// by name, schema property order is kept, and named types are numbered in
// first-use order. Options{Compact: true} renders the SDK section of the
// run_code system prompt (only the tools declaration, ToolCallError and
// the types it references), saying each thing once (compact.go, hoist.go).
//
// # Mapping decisions
//
//   - A property is optional unless listed in required; a default never
//     makes it required (it becomes an @default doc line).
//   - Soundness first: every value the schema accepts must be a value of
//     the type (measured with the JSON Schema Test Suite, suite_test.go);
//     where a keyword cannot be typed exactly, the type is the wider one.
//   - Undeclared keys follow the schema: absent or true
//     additionalProperties (the JSON Schema default) marks the object
//     "& Open" (an index signature of unknown that also names Object's
//     members, which TypeScript would otherwise check), which admits extra
//     keys in object literals at the cost of seven characters rather than
//     an index signature line. Result types skip the marker: a result is
//     read, never written as a literal, and TypeScript object types are
//     structurally open already. false closes the object; a schema types
//     an index signature, widened with the declared members' types
//     because TypeScript requires them to fit it. An object that declares
//     nothing is any object ({ [key: string]: JsonValue }).
//   - patternProperties that are literal text with optional anchors
//     become template literal index signatures (^x- → `x-${string}`),
//     intersected so that a key matching both a property and a pattern
//     must satisfy both; other patterns type nothing on an open object and
//     fall back to a union index on a closed one.
//   - unevaluatedProperties/unevaluatedItems close the object over the
//     keys (the tuple after the items) that its in-place subschemas
//     evaluate, when those can be listed; the subschemas then leave
//     undeclared keys to the parent.
//   - A schema without type but with object or array keywords still
//     admits every other kind of value; draft 7 and older (by $schema)
//     read $ref alone, ignoring its siblings; a schema without $schema is
//     2020-12, as in MCP.
//   - not of a type (or of everything), oneOf with two always-true
//     branches, if/then/else (the union of the branches), dependencies
//     (the key absent, or the listed keys present), propertyNames that
//     list the names and contains: false are typed; a declared optional
//     key named like an Object.prototype member (constructor, toString…)
//     also admits a function, since an object literal inherits one.
//   - enum/const are literal unions; when type is also given, values the
//     type rules out are dropped (JSON Schema requires both), so
//     {"type": ["string","null"], "enum": ["F","C"]} is "F" | "C".
//   - Every $ref target (#, #/$defs/…, #/definitions/…, #/properties/…,
//     $anchor) becomes a named type in namespace ToolTypes, which keeps
//     recursion typed and cannot clash with globals such as Node or Error.
//     Identical definitions in several tools (same pointer, same text, same
//     references) share one name; different ones get a tool-qualified or
//     numbered name. A reference cycle with no object or array in between
//     (type A = B; type B = A) is cut with a note.
//   - Keywords no type can carry (a not of a real schema, if without
//     both branches, $dynamicRef, external $ref) leave that node wider — any JSON value
//     when nothing else constrains it — and add a doc note; the rest of the
//     tool keeps its types. Nesting deeper than 40 levels is cut the same
//     way; parsing and checking are iterative, so no schema can exhaust the
//     stack.
//   - Tool names are never rewritten. A name that is not an identifier is
//     a quoted member (tools["my-tool"](args)). In Python such names, the
//     keywords, and names starting with "_" are reached only through the
//     typed tools["name"] overloads of Tools.__getitem__.
//   - Python renders every object as a TypedDict, in the functional form
//     TypedDict("Name", {...}) when a key is a keyword, not an identifier,
//     starts with "__" or would shadow a builtin type. Intersections of
//     objects become a TypedDict with those bases; other intersections take
//     their first member (a sound, wider type). Tuples that are not closed
//     and fixed-length become lists of the union of their element types.
package sdkgen
