package driver

import (
	"context"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/form"
)

// Applicant tracking systems (issue 29). A form the look names as
// Greenhouse or Ashby has a published definition: its questions, which
// are required, and every option of its dropdowns, which custom selects
// render only when opened. The ledger reads it once a session per job,
// from the page (fetchIn: the URL policy and the daemon's proxy, with no
// cookies and nothing of the form's values in the request), and lays it
// over the fields the page shows. A definition that cannot be read leaves
// the ledger as the page gives it, with a note that says why.

// ATSOptions says where the ATS APIs answer; empty means the vendor's.
type ATSOptions struct {
	GreenhouseAPI string // "https://boards-api.greenhouse.io"
	AshbyAPI      string // "https://jobs.ashbyhq.com"
}

// overlayATS names the form's ATS and lays its definition over out
// (the room's: form.ATSDefs.Overlay); the definition is asked for from
// the page through fetchIn, the URL policy's one way out.
func (s *Session) overlayATS(ctx context.Context, t *tab, sc *form.Scan, out *calls.Form) {
	app := s.detectApp(ctx, t)
	if app == nil || app.Kind != apps.KindATS {
		return
	}
	fetch := func(ctx context.Context, req calls.FetchRequest, method string) (*calls.FetchResult, error) {
		return s.fetchIn(ctx, t, req, method, "omit")
	}
	apis := form.ATSAPIs{Greenhouse: s.browser.opts.ATS.GreenhouseAPI, Ashby: s.browser.opts.ATS.AshbyAPI}
	s.atsDefs.Overlay(ctx, sc, out, app.Name, apis, fetch)
}
