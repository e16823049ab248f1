package shell

import (
	"fmt"
	"strings"
)

// opts is the result of parsing a builtin's command line.
type opts struct {
	set  map[string]bool
	vals map[string][]string
	args []string
}

func (o *opts) has(name string) bool { return o.set[name] }

// val returns the last value given for a flag, or "".
func (o *opts) val(name string) string {
	v := o.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// flagSpec describes accepted flags. short lists single-letter flags; a
// letter followed by ':' takes a value. long maps a long name to the short
// name it stands for (or to itself), with a trailing '=' when it takes a
// value. numeric lets "-5" mean "-n 5" (head, tail). permute lets flags
// follow operands, as GNU tools allow; xargs and find must not permute.
type flagSpec struct {
	short   string
	long    map[string]string
	numeric string
	permute bool
}

func (s flagSpec) takesValue(f byte) (known, value bool) {
	i := strings.IndexByte(s.short, f)
	if i < 0 || f == ':' {
		return false, false
	}
	return true, i+1 < len(s.short) && s.short[i+1] == ':'
}

func (s flagSpec) parse(args []string) (*opts, error) {
	o := &opts{set: map[string]bool{}, vals: map[string][]string{}}
	add := func(name, v string, hasV bool) {
		o.set[name] = true
		if hasV {
			o.vals[name] = append(o.vals[name], v)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.args = append(o.args, args[i+1:]...)
			return o, nil
		case strings.HasPrefix(a, "--") && s.long != nil:
			name, v, hasV := strings.Cut(a[2:], "=")
			target, ok := s.long[name]
			if !ok {
				if t, ok2 := s.long[name+"="]; ok2 {
					target, ok = t, true
					if !hasV {
						if i+1 >= len(args) {
							return nil, fmt.Errorf("option '--%s' requires an argument", name)
						}
						i++
						v, hasV = args[i], true
					}
				}
			}
			if !ok {
				return nil, fmt.Errorf("unrecognized option '%s'", a)
			}
			add(strings.TrimSuffix(target, "="), v, hasV)
		case len(a) > 1 && a[0] == '-':
			if s.numeric != "" && a[1] >= '0' && a[1] <= '9' {
				add(s.numeric, a[1:], true)
				continue
			}
			for j := 1; j < len(a); j++ {
				known, value := s.takesValue(a[j])
				if !known {
					return nil, fmt.Errorf("invalid option -- '%c'", a[j])
				}
				if !value {
					add(string(a[j]), "", false)
					continue
				}
				v := a[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						return nil, fmt.Errorf("option requires an argument -- '%c'", a[j])
					}
					i++
					v = args[i]
				}
				add(string(a[j]), v, true)
				break
			}
		default:
			if !s.permute {
				o.args = append(o.args, args[i:]...)
				return o, nil
			}
			o.args = append(o.args, a)
		}
	}
	return o, nil
}
