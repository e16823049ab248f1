//go:build !race

package ptc

const raceEnabled = false
