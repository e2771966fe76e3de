package form

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

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

const (
	// DefaultGreenhouseAPI and DefaultAshbyAPI are where the vendors'
	// APIs answer (driver.ATSOptions).
	DefaultGreenhouseAPI = "https://boards-api.greenhouse.io"
	DefaultAshbyAPI      = "https://jobs.ashbyhq.com"
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

// ATSDef is a read definition, or why it could not be read.
type ATSDef struct {
	questions []atsQuestion
	// Err says why it could not be read; "" when it was.
	Err string
}

// Questions is how many questions the definition has.
func (d *ATSDef) Questions() int { return len(d.questions) }

// ATSRequest is the request for the definition of the job page shows, on
// vendor's API (greenhouseAPI, ashbyAPI: "" for the vendor's own). known
// is false for a vendor with no public definition; req.URL is "" when the
// page names no job.
func ATSRequest(vendor, greenhouseAPI, ashbyAPI, page string) (req calls.FetchRequest, known bool) {
	switch vendor {
	case "Greenhouse":
		return greenhouseRequest(orDefault(greenhouseAPI, DefaultGreenhouseAPI), page), true
	case "Ashby":
		return ashbyRequest(orDefault(ashbyAPI, DefaultAshbyAPI), page), true
	}
	return calls.FetchRequest{}, false
}

// Fetch asks for a URL from the page (driver's fetchIn: the URL policy
// and the daemon's proxy, with no cookies).
type Fetch func(ctx context.Context, req calls.FetchRequest, method string) (*calls.FetchResult, error)

// ReadATS asks for a definition, from the page.
func ReadATS(ctx context.Context, fetch Fetch, vendor string, req calls.FetchRequest) *ATSDef {
	req.TimeoutMS = int(atsTimeout / time.Millisecond)
	req.MaxBytes = 2 << 20
	method := "GET"
	if req.Body != "" {
		method = "POST"
	}
	res, err := fetch(ctx, req, method)
	switch {
	case err != nil:
		return &ATSDef{Err: ErrText(err)}
	case res.Status != 200:
		return &ATSDef{Err: fmt.Sprintf("%s answered %d", res.URL, res.Status)}
	}
	var qs []atsQuestion
	if vendor == "Greenhouse" {
		qs, err = greenhouseQuestions([]byte(res.Body))
	} else {
		qs, err = ashbyQuestions([]byte(res.Body))
	}
	if err != nil {
		return &ATSDef{Err: err.Error()}
	}
	return &ATSDef{questions: qs}
}

// Field is what a question is matched to a field by.
type Field struct {
	Name  string // its name attribute, which a published definition names it by
	Label string
	Key   string
}

// LayATS lays the definition's questions over the fields: a question is a
// field's when it names the field's input or reads as its label. It
// returns how many were laid; the rest go to out.Questions.
func LayATS(fields []Field, out *calls.Form, def *ATSDef) int {
	laid := 0
	for _, q := range def.questions {
		var f *Field
		for i, x := range fields {
			if (x.Name != "" && slices.Contains(q.names, x.Name)) || FoldKey(strings.TrimSuffix(x.Label, "*")) == FoldKey(q.label) {
				f = &fields[i]
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

// FoldKey is a key or label with case, spaces, punctuation and a
// required mark folded away: "First name *" and "first_name" are alike.
func FoldKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '[', r == ']', r == '.', r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ErrText is an error's message for a result: a calls.Error's message
// without its hint.
func ErrText(err error) string {
	var ce *calls.Error
	if errors.As(err, &ce) {
		return ce.Msg
	}
	return err.Error()
}
