//go:build !race

package driver_test

const raceOn = false
