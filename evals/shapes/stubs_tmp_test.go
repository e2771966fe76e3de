//go:build evals

package shapes

import "testing"

func runForms(t *testing.T, cases []*FormCase, res *results) {}
