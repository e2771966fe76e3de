// Package driver holds the page: it starts or attaches to Chromium, keeps
// named sessions (each its own browser context with its tabs and ref table),
// builds the outline of a page and performs element and page actions with
// real input events. It never calls a model.
//
// # Quick start
//
//	b, err := driver.Launch(ctx, driver.Options{Policy: pol})
//	s, err := b.Session(ctx, "work")
//	s.Navigate(ctx, "https://example.com/")
//	outline, err := s.Outline(ctx) // refs to act on: @e1, @e2, …
//	s.Fill(ctx, "label=Email", "ann@example.com")
//	s.Click(ctx, `role=button[name="Sign in"]`, driver.WithTimeout(3*time.Second))
//
// The typed actions (Click, Fill, Select, …) build the request of
// [Session.Act], the one way an action reaches a page; a failure is one of
// package calls' sentinels, compared with [errors.Is].
//
// The calls a front makes are the plain request and result structs of
// package calls, so the daemon can carry them over its socket unchanged.
package driver
