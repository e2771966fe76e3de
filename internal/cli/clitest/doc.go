// Package clitest holds the test helpers of the command packages and of
// internal/cli/e2e: a fake [FakeCaller] that records calls and answers
// from canned results, a [NewFactory] and [NewCommon] with test streams,
// [ParseCmd], which runs a command's flag parsing and catches its Options,
// and the shop several commands' tests talk to ([ShopCaller], [PageReply],
// [APIReply], [ShopReply], the [CheckoutRoutine] and the [CLIPlan]). Only
// tests import it.
package clitest
