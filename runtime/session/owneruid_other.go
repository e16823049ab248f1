//go:build !unix

package session

func checkOwner(string) error { return nil }
