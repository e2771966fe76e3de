package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// fakePage is one page of the fake browser.
type fakePage struct {
	URL     string // where opening it lands (a redirect); empty: the URL opened
	Status  int
	Title   string
	Text    string // the outline
	Notices []calls.Notice
}

// fakeDriver is an in-memory browser: pages by URL, and what Find answers
// for each locator scripted by the test.
type fakeDriver struct {
	// Session is nil: a call the fake does not script panics, so a test
	// that reaches one says so.
	calls.Session
	mu     sync.Mutex
	pages  map[string]fakePage
	url    string
	find   map[string]calls.Resolution // by locator; missing when absent
	rows   map[int]string              // positional finds: the ref of each row
	locate map[string]calls.Evidence   // by ref
	actErr map[string]error            // by target
	nav    map[string]string           // by target: the URL an act there lands on
	acts   []calls.ActRequest
	fills  []calls.FormFillRequest
	log    []string
	apiErr error // what CallAPI fails with; nil answers no rows
}

var _ calls.Session = (*fakeDriver)(nil)

func (d *fakeDriver) record(s string) { d.log = append(d.log, s) }

func (d *fakeDriver) Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("open " + req.URL)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, ok := d.pages[req.URL]
	if !ok {
		return nil, calls.Errorf(calls.ErrNavigation, "check the address", "could not open %s: net::ERR_CONNECTION_REFUSED", req.URL)
	}
	d.url = req.URL
	if p.URL != "" {
		d.url = p.URL
	}
	return &calls.PageInfo{URL: d.url, Title: p.Title, Status: p.Status}, nil
}

func (d *fakeDriver) page() fakePage {
	p, ok := d.pages[d.url]
	if !ok {
		for _, q := range d.pages {
			if q.URL == d.url {
				return q
			}
		}
	}
	return p
}

func (d *fakeDriver) Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("snapshot")
	p := d.page()
	return &calls.Snapshot{URL: d.url, Title: p.Title, Text: p.Text, Notices: p.Notices}, nil
}

func (d *fakeDriver) Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.record(fmt.Sprintf("act %s %s", req.Kind, req.Target))
	// An approval gets past a needs-approval (the driver checks it
	// against the page; the tests give the page's own).
	if err := d.actErr[req.Target]; err != nil && (req.Approve == nil || !errors.Is(err, calls.ErrNeedsApproval)) {
		return nil, err
	}
	d.acts = append(d.acts, req)
	if u, ok := d.nav[req.Target]; ok {
		d.url = u
		return &calls.Outcome{URL: d.url, Navigated: true}, nil
	}
	return &calls.Outcome{URL: d.url}, nil
}

func (d *fakeDriver) Get(ctx context.Context, req calls.GetRequest) (*calls.GetResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("get " + req.What)
	return &calls.GetResult{Value: d.url, Found: true}, nil
}

func (d *fakeDriver) Screenshot(ctx context.Context, req calls.ScreenshotRequest) (*calls.Image, error) {
	return &calls.Image{}, nil
}

func (d *fakeDriver) Locate(ctx context.Context, req calls.LocateRequest) (*calls.Evidence, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("locate " + req.Target)
	ev, ok := d.locate[strings.TrimPrefix(req.Target, "@")]
	if !ok {
		return nil, calls.Errorf(calls.ErrUnknownRef, "", "unknown ref %s", req.Target)
	}
	return &ev, nil
}

func (d *fakeDriver) Find(ctx context.Context, req calls.FindRequest) (*calls.Resolution, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("find " + req.Locator)
	if req.Positional {
		if ref, ok := d.rows[req.Row]; ok {
			return &calls.Resolution{Status: calls.Found, Ref: ref}, nil
		}
		return &calls.Resolution{Status: calls.Missing, Reason: "no such row"}, nil
	}
	if r, ok := d.find[req.Locator]; ok {
		return &r, nil
	}
	return &calls.Resolution{Status: calls.Missing, Reason: "nothing like it on the page"}, nil
}

func (d *fakeDriver) CallAPI(ctx context.Context, req calls.APICallRequest) (*calls.APICallResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("api")
	if d.apiErr != nil {
		return nil, d.apiErr
	}
	return &calls.APICallResult{}, nil
}

// FillForm keeps the request and fills every answer.
func (d *fakeDriver) FillForm(ctx context.Context, req calls.FormFillRequest) (*calls.FormFillResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record("form fill")
	d.fills = append(d.fills, req)
	res := &calls.FormFillResult{URL: d.url}
	for k := range req.Answers {
		res.Fields = append(res.Fields, calls.FilledField{Key: k, Answered: true, ReadBack: true})
	}
	return res, nil
}

// acted lists the targets acted on, with the kind.
func (d *fakeDriver) acted() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, a := range d.acts {
		out = append(out, a.Kind+" "+a.Target)
	}
	return out
}
