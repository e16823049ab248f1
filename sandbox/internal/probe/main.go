//go:build wasip1

// Command probe is a tiny reactor guest for the sandbox escape suite. It
// speaks the ptc_run contract of sandbox/proto but understands only its
// own line-oriented script in Request.Command, one operation per line,
// printing one result line per operation. It exists so the host and the
// filesystem can be attacked with raw WASI calls that the real shell
// guest would clean up or refuse before they reach the host.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func main() {}

//go:wasmexport ptc_run
func run() int32 {
	var req proto.Request
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stdin:", err)
		return 3
	}
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintln(os.Stderr, "request:", err)
		return 3
	}
	if req.Cwd != "" {
		if err := os.Chdir(req.Cwd); err != nil {
			fmt.Fprintln(os.Stderr, "chdir:", err)
		}
	}
	code := int32(0)
	sc := bufio.NewScanner(strings.NewReader(req.Command))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		out, rc := do(f[0], f[1:], req)
		fmt.Println(out)
		if rc != 0 {
			code = rc
		}
	}
	return code
}

func result(err error) string {
	if err != nil {
		return "ERR " + err.Error()
	}
	return "OK"
}

func do(op string, a []string, req proto.Request) (string, int32) {
	arg := func(i int) string {
		if i < len(a) {
			return a[i]
		}
		return ""
	}
	switch op {
	case "read":
		b, err := os.ReadFile(arg(0))
		if err != nil {
			return result(err), 0
		}
		return "DATA " + strings.TrimSpace(string(b)), 0
	case "readloop":
		n, _ := strconv.Atoi(arg(1))
		counts := map[string]int{}
		for i := 0; i < n; i++ {
			b, err := os.ReadFile(arg(0))
			if err != nil {
				counts["err"]++
				continue
			}
			counts[strings.TrimSpace(string(b))]++
		}
		return fmt.Sprintf("COUNTS inside=%d canary=%d err=%d", counts["INSIDE"], counts["CANARY"], counts["err"]), 0
	case "writeloop":
		n, _ := strconv.Atoi(arg(1))
		ok, failed := 0, 0
		for i := 0; i < n; i++ {
			if os.WriteFile(arg(0), []byte("RACED"), 0o644) == nil {
				ok++
			} else {
				failed++
			}
		}
		return fmt.Sprintf("COUNTS ok=%d err=%d", ok, failed), 0
	case "readdir":
		es, err := os.ReadDir(arg(0))
		if err != nil {
			return result(err), 0
		}
		names := make([]string, 0, len(es))
		for _, e := range es {
			names = append(names, e.Name())
		}
		return "DATA " + strings.Join(names, ","), 0
	case "write":
		return result(os.WriteFile(arg(0), []byte(arg(1)), 0o644)), 0
	case "append":
		f, err := os.OpenFile(arg(0), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return result(err), 0
		}
		_, err = f.WriteString(arg(1))
		f.Close()
		return result(err), 0
	case "truncate":
		return result(os.Truncate(arg(0), 0)), 0
	case "mkdir":
		return result(os.Mkdir(arg(0), 0o755)), 0
	case "rm":
		return result(os.Remove(arg(0))), 0
	case "rename":
		return result(os.Rename(arg(0), arg(1))), 0
	case "symlink":
		return result(os.Symlink(arg(0), arg(1))), 0
	case "link":
		return result(os.Link(arg(0), arg(1))), 0
	case "chtimes":
		t := time.Unix(1, 0)
		return result(os.Chtimes(arg(0), t, t)), 0
	case "open":
		f, err := os.Open(arg(0))
		if err == nil {
			f.Close()
		}
		return result(err), 0
	case "rawopen":
		return rawOpen(arg(0), arg(1)), 0
	case "openmany":
		n, _ := strconv.Atoi(arg(1))
		var files []*os.File
		for i := 0; i < n; i++ {
			f, err := os.Open(arg(0))
			if err != nil {
				return fmt.Sprintf("OPENED %d ERR %v", len(files), err), 0
			}
			files = append(files, f)
		}
		return fmt.Sprintf("OPENED %d", len(files)), 0
	case "fill":
		chunk := make([]byte, 64<<10)
		f, err := os.Create(arg(0))
		if err != nil {
			return result(err), 0
		}
		defer f.Close()
		total := 0
		for total < 1<<30 {
			n, err := f.Write(chunk)
			total += n
			if err != nil {
				return fmt.Sprintf("WROTE %d ERR %v", total, err), 0
			}
		}
		return fmt.Sprintf("WROTE %d", total), 0
	case "loop":
		for {
		}
	case "sleep":
		d, _ := time.ParseDuration(arg(0))
		time.Sleep(d)
		return "OK", 0
	case "stdin":
		b, err := io.ReadAll(os.Stdin)
		return fmt.Sprintf("STDIN %d %v", len(b), err), 0
	case "membomb":
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 16<<20))
		}
	case "flood":
		line := strings.Repeat("y", 1023) + "\n"
		for {
			os.Stdout.WriteString(line)
		}
	case "env":
		return "ENV " + strings.Join(os.Environ(), " "), 0
	case "rand":
		var b [8]byte
		return "RAND " + randHex(b[:]), 0
	case "exit":
		n, _ := strconv.Atoi(arg(0))
		return "EXIT", int32(n)
	case "panic": // the guest traps, as when the shell guest hits a bug
		panic("probe: " + arg(0))
	}
	return "ERR unknown op " + op, 2
}
