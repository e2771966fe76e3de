// Package clitest holds the test helpers of the command packages: a fake
// [FakeCaller] that records calls and answers from canned results, a
// [NewFactory] and [NewCommon] with test streams, and [ParseCmd], which
// runs a command's flag parsing and catches its Options. Only tests import
// it.
package clitest
