// Package reliability is the reliability evaluation (issue 30, item 2):
// twelve data jobs on loopback sites that change day by day from a seed,
// each recorded once on day 0 and replayed over simulated days, counting
// what passed, what healed (and with how many model calls), what stopped
// (and why) and every wrong row, against the truth the servers keep. The
// eval is in the test files (build tag evals); see README.md.
package reliability
