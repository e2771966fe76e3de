package apps

// The applicant tracking systems whose job application forms waymark
// names (issue 29). Each is known by its hosted pages' hosts, and on a
// company's own site by the embed it leaves there (the container, script
// or frame of its job board), or by the form its hosted page serves when
// that is copied or proxied under another host (Greenhouse's
// job_application[…] fields, Lever's application page beside a link to
// lever.co, Workday's formField- automation ids); the markers are the
// vendors' documented shapes, not checked against the live sites
// (Unverified). They
// come after the spreadsheets and editors: a careers page that embeds an
// editor is the editor's first.
func atsApps() []App {
	return []App{
		{Name: "Greenhouse", Kind: KindATS, Hosts: []string{"boards.greenhouse.io", "job-boards.greenhouse.io", "*.greenhouse.io"}, Unverified: true},
		{Name: "Greenhouse", Kind: KindATS, Unverified: true,
			Marker: `#grnhse_app, #grnhse_iframe, iframe[src*="greenhouse.io/embed"], script[src*="greenhouse.io/embed"], form#application_form input[name^="job_application["]`},
		{Name: "Ashby", Kind: KindATS, Hosts: []string{"jobs.ashbyhq.com", "*.ashbyhq.com"}, Unverified: true},
		{Name: "Ashby", Kind: KindATS, Unverified: true,
			Marker: `#ashby_embed, iframe[src*="jobs.ashbyhq.com"], script[src*="jobs.ashbyhq.com"], input[name^="_systemfield_"]`},
		{Name: "Lever", Kind: KindATS, Hosts: []string{"jobs.lever.co", "jobs.eu.lever.co"}, Unverified: true},
		{Name: "Lever", Kind: KindATS, Unverified: true, Marker: `iframe[src*="jobs.lever.co"], form[action*="jobs.lever.co"], body:has(a[href*="lever.co"]) .application-page`},
		{Name: "Workday", Kind: KindATS, Hosts: []string{"*.myworkdayjobs.com", "*.myworkdaysite.com"}, Unverified: true},
		{Name: "Workday", Kind: KindATS, Unverified: true, Marker: `iframe[src*="myworkdayjobs.com"], [data-automation-id^="formField-"]`},
		{Name: "iCIMS", Kind: KindATS, Hosts: []string{"*.icims.com"}, Unverified: true},
		{Name: "iCIMS", Kind: KindATS, Unverified: true, Marker: `iframe[src*=".icims.com"], #icims_content_iframe`},
		{Name: "SmartRecruiters", Kind: KindATS, Hosts: []string{"jobs.smartrecruiters.com", "careers.smartrecruiters.com"}, Unverified: true},
		{Name: "SmartRecruiters", Kind: KindATS, Unverified: true, Marker: `oneclick-ui, iframe[src*="smartrecruiters.com"]`},
	}
}
