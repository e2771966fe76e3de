//go:build !race

package capture

const raceOn = false
