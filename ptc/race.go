//go:build race

package ptc

// raceEnabled reports a -race build, whose memory use is several times a
// normal build's and whose shadow memory defeats an address-space limit.
const raceEnabled = true
