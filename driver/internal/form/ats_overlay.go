package form

import (
	"context"
	"fmt"
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// ATSDefs are the definitions a session read, by their request: each is
// read once a session. The zero value is ready.
type ATSDefs struct{ m sync.Map }

// ATSAPIs say where the ATS APIs answer; empty means the vendor's.
type ATSAPIs struct {
	Greenhouse, Ashby string
}

// Overlay lays the published definition of the form's ATS, vendor (as
// the look names it: Greenhouse, Ashby), over out, read once a session
// through fetch; out's notes say what was laid, or why nothing was. A
// definition that cannot be read leaves the fields as the page gives
// them.
func (defs *ATSDefs) Overlay(ctx context.Context, sc *Scan, out *calls.Form, vendor string, apis ATSAPIs, fetch Fetch) {
	out.ATS = vendor
	// The job is named by the page's URL, or by the embedded frame's that
	// holds the form (boards.greenhouse.io/embed/job_app?for=…&token=…).
	fields, where := sc.ATSFields()
	var req calls.FetchRequest
	for _, u := range where {
		var known bool
		if req, known = ATSRequest(vendor, apis.Greenhouse, apis.Ashby, u); !known {
			return // no public definition to read
		}
		if req.URL != "" {
			break
		}
	}
	if req.URL == "" {
		out.Notes = append(out.Notes, vendor+"'s published definition was not read: the page's URL names no board and job; the fields are as the page gives them")
		return
	}
	key := req.URL + "\n" + req.Body
	var def *ATSDef
	if d, ok := defs.m.Load(key); ok {
		def = d.(*ATSDef)
	} else {
		def = ReadATS(ctx, fetch, vendor, req)
		if ctx.Err() != nil {
			return
		}
		defs.m.Store(key, def)
	}
	if def.Err != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("%s's published definition could not be read (%s); the fields are as the page gives them", vendor, def.Err))
		return
	}
	laid := LayATS(fields, out, def)
	out.Notes = append(out.Notes, fmt.Sprintf("%s's published definition: %d questions, %d laid over fields (options, required), %d not on the page yet", vendor, def.Questions(), laid, len(out.Questions)))
}
