// Package testplan runs end-to-end test plans with evidence: `waymark test
// PLAN.yaml`. A plan is YAML: a name, an optional base URL, the names of
// environment variables that hold secrets, and scenarios, each a list of
// steps written in the CLI's own words ("click text=Continue", "expect text
// \"Cart (1)\"").
//
// [Parse] and [Load] read a plan and refuse a malformed one with a
// [*PlanError] that names the file, the line, the scenario and the step.
// [Run] runs each scenario in its own daemon session through a [calls.Caller],
// checks expectations with a bounded retry, and writes the evidence folder:
// screenshots (PNG) at each screenshot step and at each failure, the page's
// outline at each failure, report.md, report.json and junit.xml. Every
// secret value is masked with package secret in every text file it writes.
// Screenshots are pixels: in them, the fields a step typed a secret into are
// blacked out, but a secret the page shows anywhere else is not.
package testplan
