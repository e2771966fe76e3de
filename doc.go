// Package waymark is the module's front page: it holds no code. waymark is
// a browser for agents and the people behind them — a CLI with a resident
// daemon, an MCP server, and the Go packages below, all over the same calls.
//
// # Where to start
//
// To drive a browser from a program, start with package driver:
//
//	pol, _ := policy.New(policy.Options{Allow: []string{"example.com"}})
//	b, err := driver.Launch(ctx, driver.Options{Policy: pol})
//	if err != nil { … }
//	defer b.Close()
//	s, err := b.Session(ctx, "work")         // a browser context of its own
//	s.Navigate(ctx, "https://example.com/")
//	outline, err := s.Outline(ctx)           // one element a line, with refs
//	s.Fill(ctx, "label=Email", "ann@example.com")
//	s.Click(ctx, `role=button[name="Sign in"]`, driver.WithTimeout(3*time.Second))
//
// Errors are compared with [errors.Is] against the sentinels of package
// calls (calls.ErrNoMatch, calls.ErrNeedsApproval, calls.ErrBlockedURL, …);
// [errors.As] to *calls.Error gives the message and a hint worded for the
// command line; calls.ProgramHint(err) says the hint in a program's words
// (Session.Snapshot for `waymark snapshot`).
//
// To act by plain words ("add the blue mug to the cart"), read a page into
// a JSON Schema, or let a model do a task and record it: package pilot,
// with a model from model/anthropic, model/openai, or model/rules (no key:
// plain instructions only).
//
// To replay a recorded task with no model: package routine (the file
// format) and package replay. Over many input rows: package batch.
//
// To read a list with no model: package recipe; a site's own JSON API:
// package siteapi; spreadsheets: package sheet.
//
// The promises every path keeps have one home each: where the browser may
// go, package policy; secrets, package secret; approvals of submits,
// package approval; the calls a session answers, package calls.
package waymark
