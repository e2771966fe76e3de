package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
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

const (
	defaultGreenhouseAPI = "https://boards-api.greenhouse.io"
	defaultAshbyAPI      = "https://jobs.ashbyhq.com"
	// atsTimeout bounds the read of a definition.
	atsTimeout = 3 * time.Second
)

// atsQuestion is one question of a definition.
type atsQuestion struct {
	label    string
	names    []string // the inputs' names it is sent as
	kind     string
	required bool
	options  []string
}

// atsDef is a read definition, or why it could not be read.
type atsDef struct {
	questions []atsQuestion
	err       string
}

// overlayATS names the form's ATS and lays its definition over out.
func (s *Session) overlayATS(ctx context.Context, t *tab, sc *formScan, out *calls.Form) {
	app := s.detectApp(ctx, t)
	if app == nil || app.Kind != apps.KindATS {
		return
	}
	out.ATS = app.Name
	// The job is named by the page's URL, or by the embedded frame's that
	// holds the form (boards.greenhouse.io/embed/job_app?for=…&token=…).
	where := []string{sc.url}
	for _, f := range sc.fields {
		if f.Frame != "" && !slices.Contains(where, f.Frame) {
			where = append(where, f.Frame)
		}
	}
	var req calls.FetchRequest
	for _, u := range where {
		switch app.Name {
		case "Greenhouse":
			req = greenhouseRequest(orDefault(s.browser.opts.ATS.GreenhouseAPI, defaultGreenhouseAPI), u)
		case "Ashby":
			req = ashbyRequest(orDefault(s.browser.opts.ATS.AshbyAPI, defaultAshbyAPI), u)
		default:
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
	var def *atsDef
	if d, ok := s.atsDefs.Load(key); ok {
		def = d.(*atsDef)
	} else {
		def = s.readATS(ctx, t, app.Name, req)
		if ctx.Err() != nil {
			return
		}
		s.atsDefs.Store(key, def)
	}
	if def.err != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("%s's published definition could not be read (%s); the fields are as the page gives them", app.Name, def.err))
		return
	}
	laid := layATS(sc.fields, out, def.questions)
	out.Notes = append(out.Notes, fmt.Sprintf("%s's published definition: %d questions, %d laid over fields (options, required), %d not on the page yet", app.Name, len(def.questions), laid, len(out.Questions)))
}

// readATS asks for a definition, from the page.
func (s *Session) readATS(ctx context.Context, t *tab, vendor string, req calls.FetchRequest) *atsDef {
	req.TimeoutMS = int(atsTimeout / time.Millisecond)
	req.MaxBytes = 2 << 20
	method := "GET"
	if req.Body != "" {
		method = "POST"
	}
	res, err := s.fetchIn(ctx, t, req, method, "omit")
	switch {
	case err != nil:
		return &atsDef{err: errText(err)}
	case res.Status != 200:
		return &atsDef{err: fmt.Sprintf("%s answered %d", res.URL, res.Status)}
	}
	var qs []atsQuestion
	if vendor == "Greenhouse" {
		qs, err = greenhouseQuestions([]byte(res.Body))
	} else {
		qs, err = ashbyQuestions([]byte(res.Body))
	}
	if err != nil {
		return &atsDef{err: err.Error()}
	}
	return &atsDef{questions: qs}
}

// layATS lays the questions over the fields: a question is a field's when
// it names the field's input or reads as its label. It returns how many
// were laid; the rest go to out.Questions.
func layATS(fields []*formField, out *calls.Form, qs []atsQuestion) int {
	laid := 0
	for _, q := range qs {
		var f *formField
		for _, x := range fields {
			if (x.name != "" && slices.Contains(q.names, x.name)) || foldKey(strings.TrimSuffix(x.Label, "*")) == foldKey(q.label) {
				f = x
				break
			}
		}
		if f == nil {
			out.Questions = append(out.Questions, calls.FormQuestion{Label: q.label, Kind: q.kind, Required: q.required, Options: q.options})
			continue
		}
		laid++
		i := slices.IndexFunc(out.Fields, func(o calls.FormField) bool { return o.Key == f.Key })
		if i < 0 {
			continue
		}
		o := &out.Fields[i]
		o.Required = o.Required || q.required
		switch o.Kind {
		case calls.FieldSelect, calls.FieldCombobox, calls.FieldTypeahead, calls.FieldRadio:
			for _, v := range q.options {
				if !slices.Contains(o.Options, v) {
					o.Options = append(o.Options, v)
				}
			}
		}
	}
	return laid
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return strings.TrimRight(s, "/")
}

// pathParts are the URL's path segments and its query.
func pathParts(raw string) ([]string, url.Values) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, nil
	}
	var parts []string
	for p := range strings.SplitSeq(u.Path, "/") {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return parts, u.Query()
}

// greenhouseRequest is the Job Board API's request for the job the page
// shows: /{board}/jobs/{id} (hosted boards), or ?for={board}&token={id}
// (the embedded application). No URL when the page names neither.
func greenhouseRequest(api, page string) calls.FetchRequest {
	parts, q := pathParts(page)
	board, job := q.Get("for"), q.Get("token")
	if i := slices.Index(parts, "jobs"); i >= 1 && i+1 < len(parts) {
		board, job = parts[i-1], parts[i+1]
	}
	if board == "" || job == "" || strings.ContainsAny(board+job, "/?#") {
		return calls.FetchRequest{}
	}
	return calls.FetchRequest{URL: fmt.Sprintf("%s/v1/boards/%s/jobs/%s?questions=true", api, url.PathEscape(board), url.PathEscape(job))}
}

// greenhouseQuestions reads the Job Board API's job: questions[] with
// label, required and fields[] {name, type, values[] {label, value}}.
func greenhouseQuestions(body []byte) ([]atsQuestion, error) {
	var job struct {
		Questions []struct {
			Label    string `json:"label"`
			Required bool   `json:"required"`
			Fields   []struct {
				Name   string `json:"name"`
				Type   string `json:"type"`
				Values []struct {
					Label string `json:"label"`
				} `json:"values"`
			} `json:"fields"`
		} `json:"questions"`
	}
	if err := json.Unmarshal(body, &job); err != nil {
		return nil, fmt.Errorf("not the Job Board API's job: %v", err)
	}
	var out []atsQuestion
	for _, q := range job.Questions {
		aq := atsQuestion{label: strings.TrimSpace(q.Label), required: q.Required}
		for _, f := range q.Fields {
			if f.Type == "input_hidden" {
				continue
			}
			aq.names = append(aq.names, f.Name)
			if aq.kind == "" {
				aq.kind = f.Type
			}
			for _, v := range f.Values {
				aq.options = append(aq.options, v.Label)
			}
		}
		if len(aq.names) > 0 && aq.label != "" {
			out = append(out, aq)
		}
	}
	return out, nil
}
