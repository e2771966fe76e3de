package testplan

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// TestReportHTMLInBrowser opens report.html in the test's own Chromium:
// every image loads (they are inside the file), the screenshot before a
// step acts has its target outlined in red, and the failure row shows the
// screenshot and the page's outline at the failure. report.md carries
// its images inside it too, for a CI job summary.
func TestReportHTMLInBrowser(t *testing.T) {
	b := newBench(t)
	rep, out, _ := b.run(t, `name: html
expect_timeout: 1s
scenarios:
  - name: cart
    steps:
      - open /products/2
      - click role=button[name="Add to cart"]
      - expect text Cart (1)
  - name: broken
    steps:
      - open /products/1
      - fill label=Quantity 2
      - expect text Rocket Boots
`, nil)
	if rep.Counts != (Counts{Scenarios: 2, Passed: 1, Failed: 1}) {
		t.Fatalf("counts: %+v", rep.Counts)
	}
	click := rep.Scenarios[0].Steps[1]
	if click.Before == "" || click.Target != `role=button[name="Add to cart"]` {
		t.Fatalf("click step: %+v", click)
	}
	if rep.Files.HTML != "report.html" {
		t.Errorf("files: %+v", rep.Files)
	}

	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	view := calls.Remote{Caller: b.caller, Session: "report-view"}
	if _, err := view.Open(ctx, calls.OpenRequest{URL: srv.URL + "/report.html"}); err != nil {
		t.Fatal(err)
	}
	res, err := view.Eval(ctx, calls.EvalRequest{Expression: `(async () => {
  const imgs = [...document.images];
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  const reds = img => {
    const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
    const x = c.getContext('2d'); x.drawImage(img, 0, 0);
    const d = x.getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 0xe0 && d[i+1] < 0x40 && d[i+2] < 0x80) n++;
    return n;
  };
  const fromData = imgs.every(i => i.src.startsWith('data:image/png;base64,'));
  const failed = document.querySelectorAll('tr.step.failed');
  const row = failed[0];
  const pre = row && row.querySelector('pre.outline');
  const before = document.querySelector('tr.step.passed img.before');
  const failShot = row && row.querySelector('img.shot');
  const fillRow = [...document.querySelectorAll('tr.step')].find(r => r.textContent.includes('fill label=Quantity 2'));
  return {
    images: imgs.length,
    broken: imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt),
    fromData,
    failedRows: failed.length,
    outline: pre ? pre.textContent : '',
    outlineShown: pre ? pre.getBoundingClientRect().height > 0 : false,
    failShot: failShot ? failShot.naturalWidth : 0,
    beforeReds: before ? reds(before) : -1,
    fillReds: fillRow && fillRow.querySelector('img.before') ? reds(fillRow.querySelector('img.before')) : -1,
    failReds: failShot ? reds(failShot) : -1,
  };
})()`})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Images       int
		Broken       []string
		FromData     bool
		FailedRows   int
		Outline      string
		OutlineShown bool
		FailShot     int
		BeforeReds   int
		FillReds     int
		FailReds     int
	}
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html: %+v", got)
	// Two screenshots before acting (click, fill) and one at the failure.
	if got.Images != 3 || len(got.Broken) != 0 || !got.FromData {
		t.Errorf("images: %d, broken %v, all inside the file: %v", got.Images, got.Broken, got.FromData)
	}
	if got.FailedRows != 1 || got.FailShot == 0 {
		t.Errorf("failure row: %d rows, screenshot %d px wide", got.FailedRows, got.FailShot)
	}
	if !got.OutlineShown || !strings.Contains(got.Outline, `heading "Trail Mug"`) {
		t.Errorf("the failure row does not show the outline: shown %v\n%s", got.OutlineShown, got.Outline)
	}
	// A frame around a button is some hundreds of pixels; a page of the
	// shop has no such red of its own (the failure shot, with no target).
	if got.BeforeReds < 200 || got.FillReds < 200 || got.FailReds > 20 {
		t.Errorf("red pixels: before the click %d, before the fill %d, at the failure %d", got.BeforeReds, got.FillReds, got.FailReds)
	}

	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(md), "](data:image/jpeg;base64,"); n != 3 {
		t.Errorf("report.md carries %d images inside it, want 3", n)
	}
	if len(md) > 1<<20 {
		t.Errorf("report.md is %d bytes, more than a job summary takes", len(md))
	}
}
