package fileops

import "github.com/ptc-dev/ptc/sandbox/proto"

// Write is not implemented yet.
func Write(req *proto.FileRequest) proto.FileResponse {
	return failf(proto.ErrInvalid, "write is not available yet")
}

// Edit is not implemented yet.
func Edit(req *proto.FileRequest) proto.FileResponse {
	return failf(proto.ErrInvalid, "edit is not available yet")
}

// Glob is not implemented yet.
func Glob(req *proto.FileRequest) proto.FileResponse {
	return failf(proto.ErrInvalid, "glob is not available yet")
}

// Grep is not implemented yet.
func Grep(req *proto.FileRequest) proto.FileResponse {
	return failf(proto.ErrInvalid, "grep is not available yet")
}
