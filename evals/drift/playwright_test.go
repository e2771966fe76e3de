//go:build evals

package drift

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// Baselines are Playwright's locators, as the report names them.
var Baselines = []string{"getByRole", "getByText", "css", "codegen"}

// pwResult is what playwright.js prints.
type pwResult struct {
	Version   string `json:"version"`
	Scenarios []struct {
		Name     string            `json:"name"`
		Locators map[string]string `json:"locators"`
		Problems []string          `json:"problems"`
		MS       int               `json:"ms"`
		Runs     []struct {
			Variant string `json:"variant"`
			Locator string `json:"locator"`
			Outcome string `json:"outcome"` // clicked, none, strict, timeout, error
			Error   string `json:"error"`
			Same    string `json:"same"` // written as this other locator, not clicked again
		} `json:"runs"`
	} `json:"scenarios"`
}

// playwright runs playwright.js on the corpus against the same Chromium,
// with playwright-core from testdata/apps/playwright (make testdata-apps
// installs it). It fails the eval when that is not installed and
// WAYMARK_REQUIRE_BROWSER is set, and skips the side by side otherwise.
func playwright(t *testing.T, chromium string, cases []Case, base string) *pwResult {
	mod, err := filepath.Abs("../../testdata/apps/playwright/node_modules/playwright-core")
	if err != nil {
		t.Error(err)
		return nil
	}
	_, errMod := os.Stat(mod)
	node, errNode := exec.LookPath("node")
	if errMod != nil || errNode != nil {
		msg := "playwright-core or node is not installed (run scripts/install-testdata-apps.sh): no side by side"
		if os.Getenv("WAYMARK_REQUIRE_BROWSER") != "" {
			t.Error(msg)
		}
		t.Log(msg)
		return nil
	}
	type scen struct {
		Name     string   `json:"name"`
		Aim      Aim      `json:"aim"`
		Variants []string `json:"variants"`
	}
	plan := struct {
		Chromium   string   `json:"chromium"`
		Args       []string `json:"args"`
		Base       string   `json:"base"`
		Playwright string   `json:"playwright"`
		Scenarios  []scen   `json:"scenarios"`
	}{Chromium: chromium, Args: browsertest.GuardArgs, Base: base, Playwright: mod}
	for _, c := range cases {
		s := scen{Name: c.Name, Aim: AimAt(c.Body)}
		for _, v := range c.Variants {
			s.Variants = append(s.Variants, v.Name)
		}
		plan.Scenarios = append(plan.Scenarios, s)
	}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Error(err)
		return nil
	}
	file := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Error(err)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, node, "playwright.js", file)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Errorf("playwright.js: %v\n%s", err, errb.String())
		return nil
	}
	var res pwResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Errorf("playwright.js printed no result: %v\n%s", err, errb.String())
		return nil
	}
	return &res
}
