package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

var jqCommands = map[string]builtinFunc{"jq": jq}

// jqOptions is a parsed jq command line.
type jqOptions struct {
	raw, join, compact, slurp, null, exit, sort, rawIn, ascii, tab bool
	indent                                                         int
	filter                                                         string
	files                                                          []string
	varNames                                                       []string
	varValues                                                      []any
}

// parseJQ reads jq's options; short flags combine (-rc).
func (c *cmd) parseJQ(args []string) (*jqOptions, error) {
	o := &jqOptions{indent: 2}
	haveFilter := false
	bools := map[string]*bool{
		"r": &o.raw, "raw-output": &o.raw, "j": &o.join, "join-output": &o.join,
		"c": &o.compact, "compact-output": &o.compact, "s": &o.slurp, "slurp": &o.slurp,
		"n": &o.null, "null-input": &o.null, "e": &o.exit, "exit-status": &o.exit,
		"S": &o.sort, "sort-keys": &o.sort, "R": &o.rawIn, "raw-input": &o.rawIn,
		"a": &o.ascii, "ascii-output": &o.ascii, "tab": &o.tab,
		"M": new(bool), "monochrome-output": new(bool), "C": new(bool), "color-output": new(bool),
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		need := func(n int) ([]string, error) {
			if i+n >= len(args) {
				return nil, fmt.Errorf("%s takes %d parameters (e.g. %s name value)", a, n, a)
			}
			v := args[i+1 : i+1+n]
			i += n
			return v, nil
		}
		switch {
		case a == "--arg" || a == "--argjson" || a == "--slurpfile" || a == "--rawfile":
			v, err := need(2)
			if err != nil {
				return nil, err
			}
			val, err := c.jqArgValue(a, v[1])
			if err != nil {
				return nil, err
			}
			o.varNames = append(o.varNames, "$"+v[0])
			o.varValues = append(o.varValues, val)
		case a == "--indent":
			v, err := need(1)
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v[0])
			if err != nil || n < 0 || n > 7 {
				return nil, fmt.Errorf("Cannot indent more than 7 characters")
			}
			o.indent = n
		case strings.HasPrefix(a, "--") && len(a) > 2:
			p, ok := bools[a[2:]]
			if !ok {
				return nil, fmt.Errorf("Unknown option: %s", a)
			}
			*p = true
		case len(a) > 1 && a[0] == '-' && a != "-":
			for _, f := range a[1:] {
				p, ok := bools[string(f)]
				if !ok {
					return nil, fmt.Errorf("Unknown option: %s", a)
				}
				*p = true
			}
		case !haveFilter:
			o.filter, haveFilter = a, true
		default:
			o.files = append(o.files, a)
		}
	}
	if !haveFilter {
		return nil, errors.New("Usage: jq [OPTIONS] FILTER [FILES...]")
	}
	o.raw = o.raw || o.join
	return o, nil
}

func (c *cmd) jqArgValue(flag, v string) (any, error) {
	switch flag {
	case "--arg":
		return v, nil
	case "--argjson":
		vals, err := readJSONValues(strings.NewReader(v), nil)
		if err != nil || len(vals) != 1 {
			return nil, fmt.Errorf("--argjson: invalid JSON text passed to --argjson")
		}
		return vals[0], nil
	}
	data, err := os.ReadFile(c.path(v))
	if err != nil {
		return nil, fmt.Errorf("Bad JSON in %s %s: %s", flag, v, errText(err))
	}
	if flag == "--rawfile" {
		return string(data), nil
	}
	vals, err := readJSONValues(strings.NewReader(string(data)), nil)
	if err != nil {
		return nil, fmt.Errorf("Bad JSON in %s %s: %v", flag, v, err)
	}
	return vals, nil
}

func readJSONValues(r io.Reader, orders *keyOrders) ([]any, error) {
	jr := newJSONReader(r, orders)
	out := []any{}
	for {
		v, err := jr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

// jq runs a jq filter with gojq; options, output format and exit statuses
// follow jq 1.6.
func jq(c *cmd, args []string) int {
	o, err := c.parseJQ(args)
	if err != nil {
		c.fail("%v", err)
		return 2
	}
	q, err := gojq.Parse(o.filter)
	if err != nil {
		c.fail("error: %v\njq: 1 compile error", err)
		return 3
	}
	orders := &keyOrders{}
	orders.addFilterOrders(q)
	if q, err = gojq.Parse(withPrelude(o.filter)); err != nil {
		c.fail("error: %v\njq: 1 compile error", err)
		return 3
	}
	in := &jqInputs{c: c, o: o, orders: orders}
	env := c.environ()
	options := append(orders.orderFunctions(), gojq.WithVariables(o.varNames),
		gojq.WithEnvironLoader(func() []string { return env }), gojq.WithInputIter(in))
	code, err := gojq.Compile(q, options...)
	if err != nil {
		c.fail("error: %v\njq: 1 compile error", err)
		return 3
	}
	w := &jsonWriter{w: c.bufOut(), sorted: o.sort, ascii: o.ascii, orders: orders}
	defer w.w.Flush()
	switch {
	case o.compact:
	case o.tab:
		w.indent = "\t"
	default:
		w.indent = strings.Repeat(" ", o.indent)
	}
	r := jqRun{c: c, o: o, w: w, status: -1}
	if o.null {
		r.run(code, nil)
	} else {
		for {
			v, ok := in.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				r.inputError(err)
				break
			}
			if !r.run(code, v) {
				break
			}
		}
	}
	if in.failed {
		return 2
	}
	return r.exitStatus()
}

// jqRun runs the filter on each input and tracks the exit status.
type jqRun struct {
	c       *cmd
	o       *jqOptions
	w       *jsonWriter
	status  int // set by an error; -1 while none
	last    any
	outputs int
}

// run applies the filter to v and prints the results; false stops the
// input loop (halt).
func (r *jqRun) run(code *gojq.Code, v any) bool {
	iter := code.RunWithContext(r.c.ctx, v, r.o.varValues...)
	for {
		x, ok := iter.Next()
		if !ok {
			return true
		}
		if err, isErr := x.(error); isErr {
			return r.runError(err)
		}
		if !r.print(x) {
			r.status = 141 // the reader went away, as SIGPIPE would end jq
			return false
		}
	}
}

// print writes one result; false when the output is closed.
func (r *jqRun) print(x any) bool {
	r.outputs++
	r.last = x
	if s, ok := x.(string); ok && r.o.raw {
		r.w.w.WriteString(s)
	} else {
		r.w.write(x, 0)
	}
	if !r.o.join {
		r.w.w.WriteByte('\n')
	}
	_, err := r.w.w.Write(nil)
	return err == nil
}

func (r *jqRun) runError(err error) bool {
	var halt *gojq.HaltError
	if errors.As(err, &halt) {
		if v := halt.Value(); v != nil {
			r.w.w.Flush()
			if s, ok := v.(string); ok {
				fmt.Fprint(r.c.stderr, s)
			} else {
				b, _ := gojq.Marshal(v)
				fmt.Fprintf(r.c.stderr, "%s\n", b)
			}
		}
		r.status = halt.ExitCode()
		return false
	}
	if r.c.ctx.Err() != nil {
		r.status = 130
		return false
	}
	r.w.w.Flush()
	fmt.Fprintf(r.c.stderr, "jq: error (at <stdin>:0): %v\n", err)
	r.status = 5
	return true
}

func (r *jqRun) inputError(err error) {
	r.w.w.Flush()
	fmt.Fprintf(r.c.stderr, "jq: error (at <stdin>:0): %v\n", err)
	r.status = 2
}

func (r *jqRun) exitStatus() int {
	if r.status >= 0 {
		return r.status
	}
	if !r.o.exit {
		return 0
	}
	switch {
	case r.outputs == 0:
		return 4
	case r.last == nil || r.last == false:
		return 1
	}
	return 0
}

// jqInputs yields the input values (files in order, else stdin), for the
// main loop and for the filter's input/inputs alike.
type jqInputs struct {
	c      *cmd
	o      *jqOptions
	orders *keyOrders
	values []any
	loaded bool
	failed bool
}

func (in *jqInputs) load() {
	in.loaded = true
	names := in.o.files
	if len(names) == 0 {
		names = []string{"-"}
	}
	var raw strings.Builder
	for _, n := range names {
		r, err := in.c.open(n)
		if err != nil {
			in.c.fail("error: Could not open %s: %s", n, errText(err))
			in.failed = true
			continue
		}
		if in.o.rawIn {
			io.Copy(&raw, r)
			r.Close()
			continue
		}
		vals, err := readJSONValues(r, in.orders)
		r.Close()
		in.values = append(in.values, vals...)
		if err != nil {
			in.values = append(in.values, fmt.Errorf("%s (while parsing '%s')", err, n))
			break
		}
	}
	if in.o.rawIn {
		text := raw.String()
		if in.o.slurp {
			in.values = []any{text}
			return
		}
		lines := strings.SplitAfter(text, "\n")
		for _, l := range lines {
			if l != "" {
				in.values = append(in.values, strings.TrimSuffix(l, "\n"))
			}
		}
		return
	}
	if in.o.slurp {
		n := len(in.values)
		if n > 0 {
			if _, bad := in.values[n-1].(error); bad {
				return
			}
		}
		in.values = []any{in.values}
	}
}

// Next implements gojq.Iter.
func (in *jqInputs) Next() (any, bool) {
	if !in.loaded {
		in.load()
	}
	if len(in.values) == 0 {
		return nil, false
	}
	v := in.values[0]
	in.values = in.values[1:]
	return v, true
}
