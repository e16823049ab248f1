package acp_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/acp"
)

// claimHelper runs in a child process (see TestClaimStdout): after
// ClaimStdout, a print to os.Stdout and a child writing to fd 1 reach
// the log; only what is written to the returned file reaches stdout.
func claimHelper(logPath string) {
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		panic(err)
	}
	out, err := acp.ClaimStdout(log)
	if err != nil {
		panic(err)
	}
	fmt.Println("stray print")
	child := exec.Command("sh", "-c", "echo child output")
	child.Stdout = os.NewFile(1, "fd 1")
	if err := child.Run(); err != nil {
		panic(err)
	}
	fmt.Fprintln(out, `{"jsonrpc":"2.0","method":"x"}`)
	os.Exit(0)
}

func TestClaimStdoutLeavesOnlyTheProtocolOnStdout(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "acp.log")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PTC_ACP_CLAIM_HELPER="+logPath)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	if string(out) != `{"jsonrpc":"2.0","method":"x"}`+"\n" {
		t.Fatalf("stdout %q", out)
	}
	log, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(log), "stray print") || !strings.Contains(string(log), "child output") {
		t.Fatalf("log %q %v", log, err)
	}
}
