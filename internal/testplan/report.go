package testplan

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ReportFormat is the version string of report.json.
const ReportFormat = "waymark.test-report/1"

// Statuses of a scenario or a step.
const (
	StatusPassed  = "passed"
	StatusFailed  = "failed"
	StatusSkipped = "skipped"
)

// Report is what a run found; report.json holds it as is. Every string in
// it has been masked with the run's secrets.
type Report struct {
	Format     string           `json:"format"`
	Plan       string           `json:"plan"`
	File       string           `json:"file,omitempty"`
	BaseURL    string           `json:"base_url,omitempty"`
	Started    time.Time        `json:"started"`
	DurationMS int64            `json:"duration_ms"`
	Passed     bool             `json:"passed"` // every scenario passed
	Counts     Counts           `json:"counts"`
	Scenarios  []ScenarioResult `json:"scenarios"`
	// Missing lists evidence this run could not gather, and why.
	Missing []string `json:"missing,omitempty"`
	// Files are the report's own files, relative to the evidence folder
	// (the JUnit file may be elsewhere: then it is absolute).
	Files struct {
		Markdown string `json:"markdown"`
		HTML     string `json:"html"`
		JSON     string `json:"json"`
		JUnit    string `json:"junit"`
	} `json:"files"`
}

// Counts sums up the scenarios.
type Counts struct {
	Scenarios int `json:"scenarios"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
}

// ScenarioResult is one scenario's outcome.
type ScenarioResult struct {
	Name       string       `json:"name"`
	Line       int          `json:"line"`
	Session    string       `json:"session,omitempty"`
	Status     string       `json:"status"`
	DurationMS int64        `json:"duration_ms"`
	Failure    string       `json:"failure,omitempty"` // the failing step and why
	Steps      []StepResult `json:"steps"`
	// Console and FailedRequests are what the scenario's pages reported:
	// console errors and uncaught exceptions; requests that failed or
	// answered 400 and above.
	Console        []string `json:"console,omitempty"`
	FailedRequests []string `json:"failed_requests,omitempty"`
}

// StepResult is one step's outcome and its evidence. Paths are relative
// to the evidence folder.
type StepResult struct {
	Index      int    `json:"index"` // 1-based
	Line       int    `json:"line"`
	Text       string `json:"text"` // as written in the plan
	Status     string `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	Detail     string `json:"detail,omitempty"` // what it did or saw
	Error      string `json:"error,omitempty"`
	Hint       string `json:"hint,omitempty"`
	Code       string `json:"code,omitempty"` // the error's category: not_found, timeout, expect_failed, …
	// Warnings say what may not be what the plan meant: a locator that
	// matched only part of its element's name (split.go).
	Warnings   []string `json:"warnings,omitempty"`
	Screenshot string   `json:"screenshot,omitempty"`
	// Target is what the step acted on (a locator or ref, expanded and
	// masked); Before is a screenshot taken just before it acted, with
	// the target outlined in red (as the failure screenshot has it).
	Target         string   `json:"target,omitempty"`
	Before         string   `json:"before,omitempty"`
	Outline        string   `json:"outline,omitempty"` // at a failure: the page's full outline
	Data           string   `json:"data,omitempty"`    // extract: the data read, as JSON
	EvidenceErrors []string `json:"evidence_errors,omitempty"`
	// NetLog is what Chromium's NetLog saw in the span of a step that
	// failed as unreachable or timed out (Options.NetLog), and NetLogFile
	// the summary of that span (Markdown), relative to the evidence folder.
	NetLog     string `json:"netlog,omitempty"`
	NetLogFile string `json:"netlog_file,omitempty"`
}

func (r *Report) tally() {
	r.Counts = Counts{Scenarios: len(r.Scenarios)}
	for _, s := range r.Scenarios {
		switch s.Status {
		case StatusPassed:
			r.Counts.Passed++
		case StatusFailed:
			r.Counts.Failed++
		default:
			r.Counts.Skipped++
		}
	}
	r.Passed = r.Counts.Scenarios > 0 && r.Counts.Passed == r.Counts.Scenarios
}

// writeEvidence writes report.md, report.json and the JUnit XML. Each
// text goes through the secret mask once more on its way to disk.
func (r *runner) writeEvidence(rep *Report) error {
	junit := r.opts.JUnitFile
	if junit == "" {
		junit = filepath.Join(r.opts.OutDir, "junit.xml")
	}
	rep.Files.Markdown, rep.Files.JSON, rep.Files.HTML = "report.md", "report.json", "report.html"
	rep.Files.JUnit = junit
	if rel, err := filepath.Rel(r.opts.OutDir, junit); err == nil && !strings.HasPrefix(rel, "..") {
		rep.Files.JUnit = filepath.ToSlash(rel)
	} else if abs, err := filepath.Abs(junit); err == nil {
		rep.Files.JUnit = abs
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	xmlText, err := junitXML(rep)
	if err != nil {
		return err
	}
	im := &images{dir: r.opts.OutDir}
	htmlText, err := reportHTML(rep, im)
	if err != nil {
		return err
	}
	files := []struct {
		path string
		text string
	}{
		{filepath.Join(r.opts.OutDir, "report.md"), markdown(rep, mdImages(rep, im))},
		{filepath.Join(r.opts.OutDir, "report.html"), htmlText},
		{filepath.Join(r.opts.OutDir, "report.json"), string(js) + "\n"},
		{junit, xmlText},
	}
	for _, f := range files {
		if dir := filepath.Dir(f.path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("write %s: %w", f.path, err)
			}
		}
		if err := os.WriteFile(f.path, []byte(im.fill(r.mask(f.text))), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", f.path, err)
		}
	}
	return nil
}

// markdown renders the report for a pull request or a CI job summary: a
// summary, a table of scenarios, then each scenario's steps with links to
// the evidence and the images. inline holds the images it carries inside
// it (data: URIs, by path); the others are linked by path.
func markdown(rep *Report, inline map[string]string) string {
	var b strings.Builder
	verdict := "✅ passed"
	if !rep.Passed {
		verdict = "❌ failed"
	}
	fmt.Fprintf(&b, "# Test run: %s — %s\n\n", mdText(rep.Plan), verdict)
	fmt.Fprintf(&b, "%d scenario(s): %d passed, %d failed, %d skipped · %s · started %s",
		rep.Counts.Scenarios, rep.Counts.Passed, rep.Counts.Failed, rep.Counts.Skipped,
		ms(rep.DurationMS), rep.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	if rep.BaseURL != "" {
		fmt.Fprintf(&b, " · base URL `%s`", rep.BaseURL)
	}
	b.WriteString("\n\n| | Scenario | Steps | Time | Failure |\n|---|---|---|---|---|\n")
	for _, s := range rep.Scenarios {
		passed := 0
		for _, st := range s.Steps {
			if st.Status == StatusPassed {
				passed++
			}
		}
		fmt.Fprintf(&b, "| %s | [%s](#%s) | %d/%d | %s | %s |\n", icon(s.Status), mdText(s.Name), anchor(s.Name),
			passed, len(s.Steps), ms(s.DurationMS), mdText(s.Failure))
	}
	for _, s := range rep.Scenarios {
		fmt.Fprintf(&b, "\n## %s\n\n", mdText(s.Name))
		fmt.Fprintf(&b, "%s %s in %s", icon(s.Status), s.Status, ms(s.DurationMS))
		if s.Session != "" {
			fmt.Fprintf(&b, " · session `%s`", s.Session)
		}
		b.WriteString("\n\n| # | Step | Result | Time | Evidence |\n|---|---|---|---|---|\n")
		for _, st := range s.Steps {
			result := st.Status
			switch {
			case st.Error != "":
				result = "**failed:** " + mdText(st.Error)
				if st.Hint != "" {
					result += "<br>hint: " + mdText(st.Hint)
				}
			case st.Detail != "":
				result = "passed: " + mdText(clip(st.Detail, 160))
			}
			for _, w := range st.Warnings {
				result += "<br>⚠ warning: " + mdText(w)
			}
			var ev []string
			if st.Before != "" {
				ev = append(ev, fmt.Sprintf("[before](%s)", st.Before))
			}
			if st.Screenshot != "" {
				ev = append(ev, fmt.Sprintf("[screenshot](%s)", st.Screenshot))
			}
			if st.Outline != "" {
				ev = append(ev, fmt.Sprintf("[outline](%s)", st.Outline))
			}
			if st.Data != "" {
				ev = append(ev, fmt.Sprintf("[data](%s)", st.Data))
			}
			if st.NetLog != "" {
				ev = append(ev, "netlog: "+mdText(st.NetLog))
			}
			if st.NetLogFile != "" {
				ev = append(ev, fmt.Sprintf("[netlog](%s)", st.NetLogFile))
			}
			for _, e := range st.EvidenceErrors {
				ev = append(ev, "not captured: "+mdText(e))
			}
			fmt.Fprintf(&b, "| %d | %s `%s` | %s | %s | %s |\n", st.Index, icon(st.Status), mdCode(st.Text), result, ms(st.DurationMS), strings.Join(ev, " · "))
		}
		if len(s.Console)+len(s.FailedRequests) > 0 {
			b.WriteString("\n**What the pages reported**\n\n")
			for _, c := range s.Console {
				fmt.Fprintf(&b, "- console: `%s`\n", mdCode(c))
			}
			for _, q := range s.FailedRequests {
				fmt.Fprintf(&b, "- request: `%s`\n", mdCode(q))
			}
		}
		for _, st := range s.Steps {
			for _, shot := range []struct{ path, what string }{{st.Before, "before it acted, its target outlined"}, {st.Screenshot, ""}} {
				if shot.path == "" {
					continue
				}
				what := shot.what
				if what == "" && st.Status == StatusFailed {
					what = "at the failure"
				}
				src := shot.path
				if uri, ok := inline[shot.path]; ok {
					src = uri
				}
				fmt.Fprintf(&b, "\n**Step %d** `%s`", st.Index, mdCode(st.Text))
				if what != "" {
					fmt.Fprintf(&b, " — %s", what)
				}
				fmt.Fprintf(&b, "\n\n[![step %d](%s)](%s)\n", st.Index, src, shot.path)
			}
		}
	}
	b.WriteString("\n---\n\n")
	for _, m := range rep.Missing {
		fmt.Fprintf(&b, "- Not in this report: %s.\n", mdText(m))
	}
	b.WriteString("- Screenshots black out the fields a step typed a secret into. A secret the page shows anywhere else (as text, or in a field the plan did not fill) is not masked in a screenshot.\n")
	fmt.Fprintf(&b, "- With every screenshot at full size: [report.html](report.html) · machine-readable: [report.json](report.json) · JUnit: `%s`\n", rep.Files.JUnit)
	return b.String()
}

func icon(status string) string {
	switch status {
	case StatusPassed:
		return "✅"
	case StatusFailed:
		return "❌"
	}
	return "⏭️"
}

func ms(d int64) string {
	if d < 1000 {
		return fmt.Sprintf("%d ms", d)
	}
	return fmt.Sprintf("%.1f s", float64(d)/1000)
}

// mdText makes text safe inside a Markdown table cell.
func mdText(s string) string {
	s = mdEscaper.Replace(s)
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "\n", "<br>")
	s = strings.ReplaceAll(s, "<br><br>", "<br>")
	return s
}

// mdEscaper makes the page's words plain text in Markdown: an error or a
// scenario's failure quotes the page, and a page could write HTML
// (<img onerror=…>, <script>) or a link ([here](javascript:…)) into the
// report a person opens. Entities and backslash escapes render as the
// characters they stand for.
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	"\\", "\\\\", "|", `\|`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`,
	"*", `\*`, "_", `\_`, "`", "\\`", "!", `\!`, "#", `\#`, "~", `\~`,
)

// mdCode makes text safe inside `code` in a table cell: HTML is inert in
// a code span, but a new line would end the span and the table row, and
// what followed it would be read as Markdown and HTML.
func mdCode(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
	return strings.ReplaceAll(strings.ReplaceAll(s, "`", "'"), "|", `\|`)
}

// anchor is GitHub's heading anchor for a scenario name.
func anchor(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r == ' ' || r == '-':
			b.WriteRune('-')
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// JUnit XML: one test suite for the plan, one test case per scenario.
//
// It is written to the strict schema of the Jenkins xUnit plugin
// (testdata/junit-10.xsd, checked in the tests): testsuites counts no
// skipped, testcase has no file or line. A scenario that failed on a
// check or an action has a <failure>; one that failed because what the
// test runs on failed (no browser, no model, canceled) has an <error>.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

func junitXML(rep *Report) (string, error) {
	suite := junitSuite{
		Name: rep.Plan, Tests: rep.Counts.Scenarios, Skipped: rep.Counts.Skipped,
		Time: seconds(rep.DurationMS), Timestamp: rep.Started.UTC().Format("2006-01-02T15:04:05"),
	}
	for _, s := range rep.Scenarios {
		c := junitCase{Name: s.Name, Classname: rep.Plan, Time: seconds(s.DurationMS)}
		var steps strings.Builder
		for _, st := range s.Steps {
			fmt.Fprintf(&steps, "%-7s %d. %s (%s)\n", st.Status, st.Index, st.Text, ms(st.DurationMS))
		}
		c.SystemOut = &junitText{Text: steps.String()}
		switch s.Status {
		case StatusFailed:
			var body strings.Builder
			infra, code := false, "failed"
			for _, st := range s.Steps {
				if st.Status != StatusFailed {
					continue
				}
				infra = infra || infraCode(st.Code)
				if st.Code != "" {
					code = st.Code
				}
				fmt.Fprintf(&body, "step %d (line %d): %s\n%s\n", st.Index, st.Line, st.Text, st.Error)
				if st.Hint != "" {
					fmt.Fprintf(&body, "hint: %s\n", st.Hint)
				}
				if st.Screenshot != "" {
					fmt.Fprintf(&body, "screenshot: %s\n", st.Screenshot)
				}
				if st.Outline != "" {
					fmt.Fprintf(&body, "outline: %s\n", st.Outline)
				}
			}
			f := &junitFailure{Message: s.Failure, Type: code, Text: body.String()}
			if infra {
				c.Error = f
				suite.Errors++
			} else {
				c.Failure = f
				suite.Failures++
			}
		case StatusSkipped:
			c.Skipped = &junitSkipped{Message: s.Failure}
		}
		suite.Cases = append(suite.Cases, c)
	}
	out := junitSuites{Name: rep.Plan, Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors, Time: suite.Time, Suites: []junitSuite{suite}}
	b, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return "", err
	}
	return xml.Header + string(b) + "\n", nil
}
