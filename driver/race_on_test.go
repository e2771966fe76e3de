//go:build race

package driver_test

// raceOn: the race detector runs, and slows everything several times;
// the tests that measure time bound it looser.
const raceOn = true
