//go:build race

package capture

// raceOn: the race detector runs, and slows everything several times;
// the tests that measure time bound it looser.
const raceOn = true
