package ptc

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// sourceName is the file name programs carry in stack traces and errors.
const sourceName = "program.ts"

// The model's code is the body of an async arrow function. The opening of
// the wrapper shares the first line with the code so that line numbers in
// the source map are the model's line numbers; only columns on line 1 are
// shifted, by len(wrapOpen).
const (
	wrapOpen  = "(async () => {"
	wrapClose = "\n})()"
)

// transformed is a program after type stripping: JavaScript with an
// inline source map pointing back at the model's TypeScript.
type transformed struct {
	js string
}

// transform strips TypeScript types with esbuild. goja runs ESNext except
// async generators and for-await, which esbuild lowers to generators. A
// syntax error comes back as a Failure of kind syntax with the model's
// line, column and offending line.
func transform(code string) (*transformed, *Failure) {
	res := api.Transform(wrapOpen+code+wrapClose, api.TransformOptions{
		Loader:     api.LoaderTS,
		Target:     api.ESNext,
		Supported:  map[string]bool{"async-generator": false, "for-await": false},
		Sourcemap:  api.SourceMapInline,
		Sourcefile: sourceName,
		LogLimit:   10,
	})
	if len(res.Errors) == 0 {
		return &transformed{js: string(res.Code)}, nil
	}
	m := res.Errors[0]
	f := &Failure{Kind: KindSyntax, Message: m.Text}
	if loc := m.Location; loc != nil {
		f.Line = loc.Line
		f.Column = loc.Column + 1
		f.LineText = loc.LineText
		if loc.Line == 1 {
			f.Column -= len(wrapOpen)
			f.LineText = strings.TrimPrefix(f.LineText, wrapOpen)
		}
		if f.Column < 1 {
			f.Column = 1
		}
		if lines := strings.Count(code, "\n") + 1; f.Line > lines {
			// The error is at the wrapper's closing brace: an unclosed
			// block in the model's code. Point at its last line.
			f.Line = lines
			f.LineText = code[strings.LastIndexByte(code, '\n')+1:]
			f.Column = len(f.LineText) + 1
			f.Message = "the code ends before every block, call or string is closed (" + m.Text + ")"
		}
	}
	if n := len(res.Errors); n > 1 {
		f.Message += " (and " + plural(n-1, "more error") + ")"
	}
	return nil, f
}
