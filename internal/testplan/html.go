package testplan

import (
	"bytes"
	_ "embed"
	"html/template"
	"strings"
	"sync"
)

// report.html is the report for people: one self-contained file (styles
// and screenshots inside it, no script, nothing fetched) with the steps,
// their timings, a screenshot before each action with its target
// outlined, the screenshot and the page's outline at a failure, and what
// the pages reported (console errors, failed requests). Open it from the
// evidence folder, attach it to a CI run, or mail it.

//go:embed report.html.tmpl
var reportTemplate string

// reportPage is parsed at first use, not at init: every waymark process
// links this package, and most never write a report.
var reportPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"ms":     ms,
		"icon":   icon,
		"anchor": anchor,
	}).Parse(reportTemplate))
})

// htmlStep is a step with its evidence read in.
type htmlStep struct {
	StepResult
	BeforeSrc     template.URL // data: URI of Before
	ScreenshotSrc template.URL // data: URI of Screenshot
	OutlineText   string       // the outline file's text, at a failure
}

type htmlScenario struct {
	ScenarioResult
	Steps []htmlStep
}

type htmlReport struct {
	*Report
	Scenarios []htmlScenario
}

// reportHTML renders report.html, reading the screenshots and outlines of
// the evidence folder into it.
func reportHTML(rep *Report, im *images) (string, error) {
	page := htmlReport{Report: rep}
	for _, s := range rep.Scenarios {
		hs := htmlScenario{ScenarioResult: s}
		for _, st := range s.Steps {
			h := htmlStep{StepResult: st}
			if st.Before != "" {
				h.BeforeSrc = template.URL(im.hold(im.dataURI(st.Before)))
			}
			if st.Screenshot != "" {
				h.ScreenshotSrc = template.URL(im.hold(im.dataURI(st.Screenshot)))
			}
			if st.Outline != "" {
				if b, err := im.read(st.Outline); err == nil {
					h.OutlineText = strings.TrimRight(string(b), "\n")
				}
			}
			hs.Steps = append(hs.Steps, h)
		}
		page.Scenarios = append(page.Scenarios, hs)
	}
	var b bytes.Buffer
	if err := reportPage().Execute(&b, page); err != nil {
		return "", err
	}
	return b.String(), nil
}
