package test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestConfigEvidenceFolder(t *testing.T) {
	f, _, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
	load := clitest.LoadFile(t, "[evidence]\nfolder = \"ci/evidence\"\n", nil)
	f.Config = func() (*config.Config, error) { return load(nil) }
	got, err := clitest.ParseWith(f, NewCmdTest, []string{"plan.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Folder != "ci/evidence" {
		t.Fatalf("folder = %q, want ci/evidence", got.Folder)
	}

	t.Chdir(t.TempDir())
	fc := &clitest.FakeCaller{Reply: clitest.ShopReply("Products")}
	common, _, _ := clitest.NewCommon(fc, false, false)
	opts := &TestOptions{Common: common, File: writePlan(t, clitest.CLIPlan), Folder: got.Folder, Now: func() time.Time { return clitest.Now }}
	if err := runTest(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("ci", "evidence", "cli-plan-20260304-050607", "report.md")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("evidence folder from the config: %v", err)
	}
	// --out still wins.
	opts.Out = "here"
	if err := runTest(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("here", "report.md")); err != nil {
		t.Errorf("--out: %v", err)
	}
}
