//go:build !unix

package checkpoint

const (
	oNonblock = 0
	oNofollow = 0
)
