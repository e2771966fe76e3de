// Package driver holds the page: it starts or attaches to Chromium, keeps
// named sessions (each its own browser context with its tabs and ref table),
// builds the outline of a page and performs element and page actions with
// real input events. It never calls a model.
//
// The calls a front makes are the plain request and result structs of
// package calls, so the daemon can carry them over its socket unchanged.
package driver
