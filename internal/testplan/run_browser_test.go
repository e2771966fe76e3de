package testplan

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// bench is a real Chromium behind a session manager, and the demo shop.
type bench struct {
	caller *sessions.Manager
	site   string
}

func newBench(t *testing.T) *bench {
	t.Helper()
	site := httptest.NewServer(demo.New(nil))
	t.Cleanup(site.Close)
	m := sessions.NewShared(drivertest.Driver(t))
	t.Cleanup(func() { _ = m.Close() })
	return &bench{caller: m, site: site.URL}
}

// run parses src and runs it against the demo shop; it returns the report,
// the evidence folder and the progress lines.
func (b *bench) run(t *testing.T, src string, env map[string]string) (*Report, string, string) {
	t.Helper()
	p, err := Parse([]byte(src), "plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return b.runPlan(t, p, env)
}

func (b *bench) runPlan(t *testing.T, p *Plan, env map[string]string) (*Report, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "evidence")
	var progress syncBuffer
	rep, err := Run(ctx, p, Options{
		Caller:   b.caller,
		OutDir:   out,
		BaseURL:  b.site,
		Getenv:   func(k string) string { return env[k] },
		Progress: &progress,
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, progress.String())
	}
	t.Logf("progress:\n%s", progress.String())
	return rep, out, progress.String()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func isPNG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG (%d bytes)", path, len(b))
	}
}

// junitCounts reads the JUnit XML back with encoding/xml.
func junitCounts(t *testing.T, path string) (tests, failures, skipped int, cases []string) {
	t.Helper()
	checkJUnit(t, path)
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Skipped  int      `xml:"skipped,attr"`
		Suites   []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Tests != doc.Tests || doc.Suites[0].Failures != doc.Failures {
		t.Errorf("suite counts differ from the totals: %+v", doc)
	}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			name := c.Name
			if c.Failure != nil {
				name += " (failed)"
			}
			cases = append(cases, name)
		}
	}
	return doc.Tests, doc.Failures, doc.Skipped, cases
}

func TestRunBrowser(t *testing.T) {
	b := newBench(t)

	t.Run("passing plan", func(t *testing.T) {
		t.Parallel()
		rep, out, _ := b.run(t, `name: pass
base_url: http://127.0.0.1:1
scenarios:
  - name: open a product
    steps:
      - open /products
      - click role=link[name="Trail Mug"]
      - expect url /products/*
      - expect title Trail Mug
      - expect visible role=heading[name="Trail Mug"]
      - expect count role=button[name="Add to cart"] 1
      - expect value label=Quantity 1
      - screenshot product page
  - name: add to cart
    steps:
      - open /products/2
      - click role=button[name="Add to cart"]
      - expect text Cart (1)
      - wait text Cart (1)
      - screenshot: {name: cart, full: true}
`, nil)
		if !rep.Passed || rep.Counts != (Counts{Scenarios: 2, Passed: 2}) {
			t.Fatalf("report: %+v", rep)
		}
		var shots []string
		for _, s := range rep.Scenarios {
			for _, st := range s.Steps {
				if st.Status != StatusPassed {
					t.Errorf("%s step %d: %s %s", s.Name, st.Index, st.Status, st.Error)
				}
				if st.Screenshot != "" {
					shots = append(shots, st.Screenshot)
				}
			}
		}
		if len(shots) != 2 {
			t.Fatalf("screenshots %v, want 2", shots)
		}
		md := readFile(t, filepath.Join(out, "report.md"))
		for _, s := range shots {
			isPNG(t, filepath.Join(out, filepath.FromSlash(s)))
			if !strings.Contains(md, "]("+s+")") {
				t.Errorf("report.md does not link %s", s)
			}
		}
		if !strings.Contains(md, "passed") || strings.Contains(md, "❌") {
			t.Errorf("report.md:\n%s", md)
		}
		var fromDisk Report
		if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "report.json"))), &fromDisk); err != nil || fromDisk.Format != ReportFormat || !fromDisk.Passed {
			t.Errorf("report.json: %v %+v", err, fromDisk)
		}
		tests, failures, _, _ := junitCounts(t, filepath.Join(out, "junit.xml"))
		if tests != 2 || failures != 0 {
			t.Errorf("junit: tests=%d failures=%d", tests, failures)
		}
	})

	t.Run("failing plan", func(t *testing.T) {
		t.Parallel()
		rep, out, progress := b.run(t, `name: fail
expect_timeout: 1s
scenarios:
  - name: wrong title
    steps:
      - open /products/1
      - expect text Trail Mug
      - expect text Rocket Boots
      - screenshot never
  - name: still fine
    steps:
      - open /status/404
      - open /products
      - expect text Products
`, nil)
		if rep.Passed || rep.Counts != (Counts{Scenarios: 2, Passed: 1, Failed: 1}) {
			t.Fatalf("report counts: %+v", rep.Counts)
		}
		sc := rep.Scenarios[0]
		if sc.Status != StatusFailed || !strings.Contains(sc.Failure, "step 3") {
			t.Errorf("scenario: %+v", sc)
		}
		failed, skipped := sc.Steps[2], sc.Steps[3]
		if failed.Status != StatusFailed || failed.Code != "expect_failed" || !strings.Contains(failed.Error, `does not show "Rocket Boots"`) {
			t.Errorf("failed step: %+v", failed)
		}
		if skipped.Status != StatusSkipped {
			t.Errorf("step after the failure: %+v", skipped)
		}
		if failed.Screenshot == "" || failed.Outline == "" {
			t.Fatalf("no failure evidence: %+v", failed)
		}
		isPNG(t, filepath.Join(out, filepath.FromSlash(failed.Screenshot)))
		outline := readFile(t, filepath.Join(out, filepath.FromSlash(failed.Outline)))
		if !strings.Contains(outline, `heading "Trail Mug"`) || !strings.Contains(outline, "/products/1") {
			t.Errorf("outline at the failure:\n%s", outline)
		}
		md := readFile(t, filepath.Join(out, "report.md"))
		for _, want := range []string{"❌", "expect text Rocket Boots", "Rocket Boots", "](" + failed.Screenshot + ")", "](" + failed.Outline + ")", "skipped", "What the pages reported", "/status/404 → HTTP 404"} {
			if !strings.Contains(md, want) {
				t.Errorf("report.md lacks %q:\n%s", want, md)
			}
		}
		if got := strings.Join(rep.Scenarios[1].FailedRequests, "\n"); !strings.Contains(got, "/status/404 → HTTP 404") {
			t.Errorf("failed requests of the second scenario: %q", got)
		}
		if !strings.Contains(progress, "FAIL  wrong title › expect text Rocket Boots") {
			t.Errorf("progress:\n%s", progress)
		}
		tests, failures, skippedN, cases := junitCounts(t, filepath.Join(out, "junit.xml"))
		if tests != 2 || failures != 1 || skippedN != 0 || cases[0] != "wrong title (failed)" || cases[1] != "still fine" {
			t.Errorf("junit: tests=%d failures=%d skipped=%d cases=%v", tests, failures, skippedN, cases)
		}
	})

	t.Run("secrets are masked", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"DEMO_EMAIL": demo.DemoEmail, "DEMO_PASSWORD": demo.DemoPassword}
		rep, out, progress := b.run(t, `name: secret
expect_timeout: 1s
secrets: [DEMO_EMAIL, DEMO_PASSWORD]
scenarios:
  - name: sign in
    steps:
      - open /login
      - fill label=Email ${DEMO_EMAIL}
      - fill label=Password ${DEMO_PASSWORD}
      - expect value label=Email ${DEMO_EMAIL}
      - expect value label=Password ${DEMO_PASSWORD}
      - screenshot filled
      - click role=button[name="Sign in"]
      - expect url /account
      - expect text ${DEMO_EMAIL}
      - expect text ${DEMO_PASSWORD} is not shown
`, env)
		steps := rep.Scenarios[0].Steps
		last := steps[len(steps)-1]
		if rep.Passed || last.Status != StatusFailed || last.Outline == "" {
			t.Fatalf("the last step should fail with an outline: %+v", last)
		}
		for _, st := range steps[:len(steps)-1] {
			if st.Status != StatusPassed {
				t.Errorf("step %d %s: %s", st.Index, st.Text, st.Error)
			}
		}
		// The account page shows the email, and the outline of it, the
		// step's detail and its error all held a secret before masking.
		seen := 0
		err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			seen++
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for name, v := range env {
				if bytes.Contains(data, []byte(v)) {
					t.Errorf("%s holds the value of %s", path, name)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if seen < 6 { // report.md, report.json, junit.xml, 2 PNGs, 1 outline
			t.Errorf("only %d evidence files", seen)
		}
		for name, v := range env {
			if strings.Contains(progress, v) {
				t.Errorf("progress output holds %s", name)
			}
		}
		outline := readFile(t, filepath.Join(out, filepath.FromSlash(last.Outline)))
		if !strings.Contains(outline, "«secret:DEMO_EMAIL»") {
			t.Errorf("outline does not show the masked email:\n%s", outline)
		}
		md := readFile(t, filepath.Join(out, "report.md"))
		// The error is quoted as Markdown text: its underscore escaped.
		if !strings.Contains(md, "${DEMO_PASSWORD}") || !strings.Contains(md, `«secret:DEMO\_PASSWORD»`) {
			t.Errorf("report.md should show the reference and the mask:\n%s", md)
		}
	})

	t.Run("secret fields are blacked out in screenshots", func(t *testing.T) {
		t.Parallel()
		const key = "sk-live-SECRET-Key-123"
		// Flat green fields at known places, text included, so that a
		// pixel of each is known.
		page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<!doctype html><title>Keys</title><style>
body { margin: 0 } input { position: absolute; left: 40px; width: 320px; height: 64px; box-sizing: border-box;
  border: 0; outline: 0; padding: 0; background: #0f0; color: #0f0; font: 32px monospace; caret-color: transparent }
</style><label>Key <input id=k style="top: 100px"></label><label>Note <input id=n style="top: 250px"></label>`)
		}))
		t.Cleanup(page.Close)
		p, err := Parse([]byte(`name: masked
expect_timeout: 500ms
secrets: [API_KEY]
scenarios:
  - name: key
    steps:
      - open `+page.URL+`
      - fill label=Key ${API_KEY}
      - fill label=Note plain words
      - screenshot filled
      - expect text never shown
`), "plan.yaml")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		rec := &shotRecorder{Caller: b.caller}
		out := filepath.Join(t.TempDir(), "evidence")
		rep, err := Run(ctx, p, Options{Caller: rec, OutDir: out, Getenv: env{"API_KEY": key}.get()})
		if err != nil {
			t.Fatal(err)
		}
		steps := rep.Scenarios[0].Steps
		shot, failure := steps[3], steps[4]
		if shot.Screenshot == "" || failure.Status != StatusFailed || failure.Screenshot == "" {
			t.Fatalf("want a step screenshot and a failure screenshot: %+v", steps)
		}
		// No screenshot names a mask (the two before the fills, the step's,
		// the failure's): the driver blacks out the field the secret went
		// into by itself.
		if got := rec.masks(); len(got) != 4 || len(slices.Concat(got...)) != 0 {
			t.Errorf("screenshot masks %q, want none in 4", got)
		}
		for _, rel := range []string{steps[2].Before, shot.Screenshot, failure.Screenshot} {
			f, err := os.Open(filepath.Join(out, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			// Centres of the fields; the headless viewport is 1 pixel per CSS pixel.
			if r, g, bl, _ := img.At(200, 132).RGBA(); r>>8 > 0x10 || g>>8 > 0x10 || bl>>8 > 0x10 {
				t.Errorf("%s: the secret field is not blacked out: %v", rel, img.At(200, 132))
			}
			if r, g, bl, _ := img.At(200, 282).RGBA(); r>>8 > 0x40 || g>>8 < 0xc0 || bl>>8 > 0x40 {
				t.Errorf("%s: the plain field is not green: %v", rel, img.At(200, 282))
			}
		}
	})

	// Issue 28: `fill label=Full name Ann Lee` read as label=Full typing
	// "name Ann Lee" passed; now it is refused with the line to write, and
	// a label= that matches only part of a name warns in the progress
	// line and every report.
	t.Run("a locator split inside a name", func(t *testing.T) {
		t.Parallel()
		rep, out, progress := b.run(t, `name: split
scenarios:
  - name: split
    steps:
      - open /checkout
      - fill label=Full name Ann Lee
  - name: part
    steps:
      - open /checkout
      - fill label=Full "Ann Lee"
      - expect value label="Full name" Ann Lee
  - name: expect split
    steps:
      - open /checkout
      - expect value label=Full name Ann Lee
`, nil)
		split, part := rep.Scenarios[0], rep.Scenarios[1]
		st := split.Steps[1]
		want := `write: fill label="Full name" "Ann Lee"`
		if st.Status != StatusFailed || st.Code != "bad_input" || !strings.Contains(st.Error, want) || !strings.Contains(progress, want) {
			t.Fatalf("the split step: %s %s %q\nprogress:\n%s", st.Status, st.Code, st.Error, progress)
		}
		if part.Status != StatusPassed || len(part.Steps[1].Warnings) != 1 || !strings.Contains(part.Steps[1].Warnings[0], `only part of its label; to name it whole write label="Full name"`) {
			t.Fatalf("the partial match: %s %+v", part.Status, part.Steps[1])
		}
		if ex := rep.Scenarios[2].Steps[1]; ex.Status != StatusFailed || !strings.Contains(ex.Error, `write: expect value label="Full name" "Ann Lee"`) {
			t.Errorf("the expect value split: %s %q", ex.Status, ex.Error)
		}
		if !strings.Contains(progress, "warning: label=Full matched") {
			t.Errorf("no warning in the progress lines:\n%s", progress)
		}
		for _, f := range []string{"report.md", "report.html", "report.json"} {
			if !strings.Contains(readFile(t, filepath.Join(out, f)), "only part of its label") {
				t.Errorf("%s does not show the warning", f)
			}
		}
	})

	t.Run("example plans", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"DEMO_EMAIL": demo.DemoEmail, "DEMO_PASSWORD": demo.DemoPassword}
		files, err := filepath.Glob(filepath.Join("..", "..", "examples", "plans", "*.yaml"))
		if err != nil || len(files) < 3 {
			t.Fatalf("example plans: %v %v", files, err)
		}
		for _, f := range files {
			p, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			rep, _, _ := b.runPlan(t, p, env)
			for _, s := range rep.Scenarios {
				for _, st := range s.Steps {
					if st.Status != StatusPassed {
						t.Errorf("%s › %s › step %d %q: %s %s", filepath.Base(f), s.Name, st.Index, st.Text, st.Status, st.Error)
					}
				}
			}
		}
	})
}

// shotRecorder passes calls on and records the masks of screenshots.
type shotRecorder struct {
	calls.Caller
	mu    sync.Mutex
	shots [][]string
}

func (r *shotRecorder) Call(ctx context.Context, session, method string, params, result any) error {
	if req, ok := params.(calls.ScreenshotRequest); ok && method == calls.MethodScreenshot {
		r.mu.Lock()
		r.shots = append(r.shots, req.Mask)
		r.mu.Unlock()
	}
	return r.Caller.Call(ctx, session, method, params, result)
}

func (r *shotRecorder) masks() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.shots)
}

type env map[string]string

func (e env) get() func(string) string { return func(k string) string { return e[k] } }
