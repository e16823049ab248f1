// Command mcpdump starts an MCP server over stdio, asks it for its tools
// and prints the tools/list result as indented JSON. It is how the MCP
// fixtures in sdkgen/testdata were collected:
//
//	go run ./sdkgen/internal/mcpdump -- npx @modelcontextprotocol/server-memory > sdkgen/testdata/schemas/mcp_memory.json
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: mcpdump -- COMMAND [ARG...]")
		os.Exit(2)
	}
	out, err := dump(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpdump:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}

func dump(args []string) ([]byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	send := func(msg string) error { _, err := io.WriteString(in, msg+"\n"); return err }
	rd := bufio.NewReader(outPipe)
	await := func(id int) (json.RawMessage, error) {
		for {
			line, err := rd.ReadBytes('\n')
			if err != nil {
				return nil, err
			}
			var resp struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(line, &resp) != nil || resp.ID == nil || *resp.ID != id {
				continue
			}
			if resp.Error != nil {
				return nil, errors.New(string(resp.Error))
			}
			return resp.Result, nil
		}
	}
	if err := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpdump","version":"0"}}}`); err != nil {
		return nil, err
	}
	if _, err := await(1); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return nil, err
	}
	if err := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`); err != nil {
		return nil, err
	}
	res, err := await(2)
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, res, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
