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
// the types it references).
//
// # Mapping decisions
//
//   - A property is optional unless listed in required; a default never
//     makes it required (it becomes an @default doc line).
//   - Absent additionalProperties adds no index signature: the type lists
//     the declared members only. Open objects are the JSON Schema default,
//     but an index signature on every object is the most complained-about
//     habit of other generators, and extra keys are rarely meant. An
//     object that declares no properties at all is any object
//     ({ [key: string]: JsonValue }). additionalProperties: true adds an
//     explicit index signature; false closes the object; a schema types
//     the index. Because TypeScript requires declared members to fit the
//     index type, the index type is widened with their types (or becomes
//     unknown when they are large or the extra keys hold any JSON).
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
//   - Keywords no type can carry (not, if/then/else, dependentSchemas,
//     $dynamicRef, external $ref) leave that node wider — any JSON value
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
