package form

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Ashby's hosted job pages (jobs.ashbyhq.com/{org}/{posting}) read the
// posting, its application form included, from the public GraphQL
// endpoint beside them; the shape here is the one those pages ask for
// (applicationForm.sections[].fieldEntries[] {field {path, title, type,
// selectableValues}, isRequired}), written from its public description
// and not checked against the live site.

// ashbyQuery asks for a posting's application form, nothing else.
const ashbyQuery = `query ApiJobPosting($organizationHostedJobsPageName: String!, $jobPostingId: String!) { jobPosting(organizationHostedJobsPageName: $organizationHostedJobsPageName, jobPostingId: $jobPostingId) { id applicationForm { sections { fieldEntries { ... on FormFieldEntry { field isRequired } } } } } }`

// ashbyRequest is the request for the posting the page shows:
// /{org}/{posting}[/application]. No URL when the page names neither.
func ashbyRequest(api, page string) calls.FetchRequest {
	parts, q := pathParts(page)
	org, posting := "", q.Get("ashby_jid")
	if len(parts) >= 2 {
		org, posting = parts[0], parts[1]
	}
	if org == "" || posting == "" {
		return calls.FetchRequest{}
	}
	body, _ := json.Marshal(map[string]any{
		"operationName": "ApiJobPosting",
		"variables":     map[string]string{"organizationHostedJobsPageName": org, "jobPostingId": posting},
		"query":         ashbyQuery,
	})
	return calls.FetchRequest{URL: api + "/api/non-user-graphql?op=ApiJobPosting", Body: string(body),
		Headers: map[string]string{"content-type": "application/json"}}
}

// ashbyQuestions reads the posting's form.
func ashbyQuestions(body []byte) ([]atsQuestion, error) {
	var res struct {
		Data struct {
			JobPosting *struct {
				ApplicationForm struct {
					Sections []struct {
						FieldEntries []struct {
							IsRequired bool `json:"isRequired"`
							Field      struct {
								Path             string `json:"path"`
								Title            string `json:"title"`
								Type             string `json:"type"`
								SelectableValues []struct {
									Label string `json:"label"`
								} `json:"selectableValues"`
							} `json:"field"`
						} `json:"fieldEntries"`
					} `json:"sections"`
				} `json:"applicationForm"`
			} `json:"jobPosting"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return nil, fmt.Errorf("not Ashby's posting: %v", err)
	}
	if res.Data.JobPosting == nil {
		return nil, fmt.Errorf("no such posting on the board")
	}
	var out []atsQuestion
	for _, s := range res.Data.JobPosting.ApplicationForm.Sections {
		for _, e := range s.FieldEntries {
			f := e.Field
			if strings.TrimSpace(f.Title) == "" {
				continue
			}
			q := atsQuestion{label: strings.TrimSpace(f.Title), names: []string{f.Path}, kind: f.Type, required: e.IsRequired}
			for _, v := range f.SelectableValues {
				q.options = append(q.options, v.Label)
			}
			out = append(out, q)
		}
	}
	return out, nil
}
