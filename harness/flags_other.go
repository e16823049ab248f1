//go:build !unix

package harness

const oNonblock = 0
