package sandbox

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	guestwasm "github.com/ptc-dev/ptc/sandbox/guest/wasm"
	"github.com/ptc-dev/ptc/sandbox/internal/wasmprep"
)

// ColdCompileNotice is what Config.Notice is told when the guest is not in
// the compile cache yet: the one wait of several seconds a user meets.
const ColdCompileNotice = "compiling the sandbox for this version of ptc (once; a few seconds)…"

// compiledMark is the file that records that the embedded guest, as
// prepared (wasmprep.Version), was compiled into dir's cache by this
// version of wazero (whose cache is per version). It is written after a
// compile succeeds, so its absence means the next compile is a cold one.
// "" when there is no cache or the guest is not the embedded one.
func (h *Host) compiledMark(dir string) string {
	if dir == "" || !h.embedded || guestwasm.WasmHash() == "" {
		return ""
	}
	name := "guest-" + guestwasm.WasmHash() + "-prep" + wasmprep.Version + "-wazero-" + wazeroVersion() + ".compiled"
	return filepath.Join(dir, name)
}

// markExists reports whether the mark path names an existing file ("" never does).
func markExists(path string) bool {
	if path == "" {
		return false
	}
	_, err := os.Stat(path)
	return err == nil
}

// wazeroVersion is the wazero version this binary was built with, as the
// compile cache names its directories ("dev" when the build does not say).
func wazeroVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" && dep.Version != "" && dep.Version != "(devel)" {
				return strings.ReplaceAll(dep.Version, string(filepath.Separator), "_")
			}
		}
	}
	return "dev"
}
