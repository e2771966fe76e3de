package driver

import (
	"context"
	"fmt"

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

// overlayATS names the form's ATS and lays its definition over out.
func (s *Session) overlayATS(ctx context.Context, t *tab, sc *form.Scan, out *calls.Form) {
	app := s.detectApp(ctx, t)
	if app == nil || app.Kind != apps.KindATS {
		return
	}
	out.ATS = app.Name
	// The job is named by the page's URL, or by the embedded frame's that
	// holds the form (boards.greenhouse.io/embed/job_app?for=…&token=…).
	fields, where := sc.ATSFields()
	var req calls.FetchRequest
	for _, u := range where {
		var known bool
		if req, known = form.ATSRequest(app.Name, s.browser.opts.ATS.GreenhouseAPI, s.browser.opts.ATS.AshbyAPI, u); !known {
			return // no public definition to read
		}
		if req.URL != "" {
			break
		}
	}
	if req.URL == "" {
		out.Notes = append(out.Notes, app.Name+"'s published definition was not read: the page's URL names no board and job; the fields are as the page gives them")
		return
	}
	key := req.URL + "\n" + req.Body
	var def *form.ATSDef
	if d, ok := s.atsDefs.Load(key); ok {
		def = d.(*form.ATSDef)
	} else {
		fetch := func(ctx context.Context, req calls.FetchRequest, method string) (*calls.FetchResult, error) {
			return s.fetchIn(ctx, t, req, method, "omit")
		}
		def = form.ReadATS(ctx, fetch, app.Name, req)
		if ctx.Err() != nil {
			return
		}
		s.atsDefs.Store(key, def)
	}
	if def.Err != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("%s's published definition could not be read (%s); the fields are as the page gives them", app.Name, def.Err))
		return
	}
	laid := form.LayATS(fields, out, def)
	out.Notes = append(out.Notes, fmt.Sprintf("%s's published definition: %d questions, %d laid over fields (options, required), %d not on the page yet", app.Name, def.Questions(), laid, len(out.Questions)))
}
