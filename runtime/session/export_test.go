package session

// StoreErrorForTest exposes storeError to the external tests.
var StoreErrorForTest = storeError

// SetFreeBytesForTest replaces the free-space probe until the returned
// function restores it.
func SetFreeBytesForTest(f func(dir string) int64) (restore func()) {
	old := freeBytes
	freeBytes = f
	return func() { freeBytes = old }
}
