package sdkgen

// tkind is the shape of a type in the language-neutral model that both
// renderers read.
type tkind uint8

const (
	tJSON tkind = iota // any JSON value
	tNever
	tNull
	tBool
	tString
	tNumber
	tInteger
	tLiteral
	tArray
	tTuple
	tObject
	tUnion
	tIntersection
	tRef
)

// typ is one node of the type model.
type typ struct {
	kind     tkind
	lit      *value  // tLiteral
	elem     *typ    // tArray element
	items    []*typ  // tTuple prefix; tUnion and tIntersection members
	minItems int     // tTuple: elements from this index on are optional
	rest     *typ    // tTuple: type of further elements; nil = closed
	props    []*prop // tObject declared members, in schema order
	index    *typ    // tObject: type of undeclared keys; nil = none described
	indexKey string  // tObject: template literal type of the keys index covers; "" = every key
	open     bool    // tObject without index: undeclared keys may hold any value
	// delegated marks a tObject whose undeclared keys another member of an
	// intersection decides on (it renders no index signature and no Open
	// marker, and as object when it declares nothing).
	delegated bool
	ref       *named // tRef
}

// prop is one declared object member.
type prop struct {
	name     string
	t        *typ
	optional bool
	readOnly bool
	doc      []string
}

// named is a schema reached through $ref; it becomes a named type so that
// recursion stays typed and shared definitions are written once.
type named struct {
	hint    string // preferred name
	altHint string // tool-qualified name tried on a collision
	t       *typ
	doc     []string
	// output marks a type only results use (the compact SDK's shared
	// result types): it renders as a result, without Open markers.
	output bool
}

// toolModel is one tool after conversion. A nil out means no output schema.
type toolModel struct {
	name, desc string
	args, out  *typ
	argsHint   string
	outHint    string
	notes      []string
}

// model is the converted tool set: tools sorted by name and the named
// types they reference, in first-use order.
type model struct {
	tools []*toolModel
	named []*named
}

var (
	anyJSON = &typ{kind: tJSON}
	never   = &typ{kind: tNever}
)
