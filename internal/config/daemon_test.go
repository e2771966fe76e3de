package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDaemonSettings(t *testing.T) {
	c, err := Load(LoadOptions{
		Getenv: func(k string) string { return map[string]string{"WAYMARK_CDP": "9222", "WAYMARK_SESSION": "s"}[k] },
		Flags:  []Flag{{Name: "--private-network", Key: "policy.private_network", Value: "all"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"browser.engine": `"auto"`, "browser.executable": `""`, "browser.cdp": `"9222"`, "browser.headless": "true", "browser.args": "[]",
		"fallback.cdp_to_local": "true", "evidence.netlog": `"off"`, "evidence.netlog_file": `""`,
		"policy.allow": "[]", "policy.block": "[]", "policy.files": "false", "policy.private_network": `"all"`,
		"daemon.idle": `"30m0s"`,
		"batch.nats":  `""`, "batch.creds": `""`, "batch.tls_ca": `""`, "batch.tls_cert": `""`, "batch.tls_key": `""`, "batch.listen": `""`,
		"pool.endpoints": "[]", "ats.greenhouse_api": `""`, "ats.ashby_api": `""`,
	}
	if d := cmp.Diff(want, c.DaemonSettings()); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
}

// TestDiffSettings: only what a file, the environment or a flag set counts;
// a key left at its default asks for nothing, and an old daemon that
// reports no settings gives nothing to compare.
func TestDiffSettings(t *testing.T) {
	daemon := Default().DaemonSettings()
	daemon["browser.headless"] = "false" // started with --headed

	c, err := Load(LoadOptions{
		Getenv: func(k string) string { return map[string]string{"WAYMARK_PRIVATE_NETWORK": "none"}[k] },
	})
	if err != nil {
		t.Fatal(err)
	}
	got := c.DiffSettings(daemon)
	want := []SettingDiff{{Key: "policy.private_network", Running: `"loopback"`, Wanted: `"none"`, Source: "env WAYMARK_PRIVATE_NETWORK"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("diffs (-want +got):\n%s", d)
	}
	if s := DescribeDiffs(got); !strings.Contains(s, `policy.private_network = "loopback" (running) but "none" from env WAYMARK_PRIVATE_NETWORK`) {
		t.Errorf("described: %s", s)
	}
	if got := Default().DiffSettings(daemon); got != nil {
		t.Errorf("defaults against a headed daemon: %v, want none", got)
	}
	if got := c.DiffSettings(nil); got != nil {
		t.Errorf("a daemon with no settings: %v", got)
	}
}
