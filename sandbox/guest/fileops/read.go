package fileops

import (
	"bytes"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// IsBinary reports a NUL byte in the first 8 KiB, the usual heuristic
// (the host's grep uses it too).
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

// splitLines splits text into lines without their terminators; a final
// newline does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// Read returns numbered lines of a text file: Offset (1-based, default 1),
// at most Limit lines (default 2000) and MaxBytes of text (default 50 000),
// each line cut at 2000 characters with LineCutMarker. Truncated is set when
// lines after the selection were left out.
func Read(req *proto.FileRequest) proto.FileResponse {
	data, fi, fail := loadRegular(req.Path)
	if fail != nil {
		return *fail
	}
	if IsBinary(data) {
		return failf(proto.ErrBinary, "%s is a binary file and cannot be read as text", req.Path)
	}
	st, _ := statOf(req.Path, fi, data)
	offset, limit, maxBytes := req.Offset, req.Limit, req.MaxBytes
	if offset <= 0 {
		offset = 1
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	all := splitLines(string(data))
	resp := proto.FileResponse{Stat: st, TotalLine: len(all)}
	if offset > len(all) && len(all) > 0 {
		return failf(proto.ErrInvalid, "offset %d is past the end of %s (%d lines)", offset, req.Path, len(all))
	}
	used := 0
	for i := offset - 1; i < len(all); i++ {
		if len(resp.Lines) == limit {
			resp.Truncated = true
			break
		}
		text := CutLine(all[i])
		if used+len(text)+1 > maxBytes && len(resp.Lines) > 0 {
			resp.Truncated = true
			break
		}
		used += len(text) + 1
		resp.Lines = append(resp.Lines, proto.Line{N: i + 1, Text: text})
	}
	return resp
}

// CutLine shortens a line to MaxLineChars characters plus LineCutMarker
// (read and grep cut lines alike).
func CutLine(s string) string {
	if len(s) <= MaxLineChars {
		return s
	}
	r := []rune(s)
	if len(r) <= MaxLineChars {
		return s
	}
	return string(r[:MaxLineChars]) + LineCutMarker
}
