package shapes

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// FormCase is a form and what filling it must send. The answers are what
// a person gives (option words, "true", a date); Sent is what the server
// must receive for each, counted at the server on submit.
type FormCase struct {
	Name   string
	Kind   string // contact, repeat-several, repeat-one-adder, wizard, widgets, greenhouse, ashby, lever, workday
	Traits []string
	Fields []FormField
	// Steps are the buttons a person presses after filling what each
	// step shows, the last one sending the form.
	Steps []string
	// Submit is the path the form is sent to.
	Submit string

	html string
	mu   sync.Mutex
	got  map[string]string // what the server received, by field name
	sent int               // how many sends reached it
}

// FormField is one answer of a case.
type FormField struct {
	Label string // the field's label as the page shows it
	Name  string // the name it is sent under
	Value string // the answer a person gives
	Sent  string // what the server must receive
	// Section and Copy place a field of a repeating section: its
	// section's slug ("sea_time") and the copy, from 0; Key is the
	// field's own key within it ("vessel").
	Section string
	Copy    int
	Key     string
}

var formKinds = []string{"contact", "repeat-several", "repeat-one-adder", "wizard", "widgets", "greenhouse", "ashby", "lever", "workday"}

func genForm(r *rand.Rand, i int) *FormCase {
	c := &FormCase{Kind: formKinds[i%len(formKinds)], Submit: "/apply"}
	var b strings.Builder
	first, last := pick(r, givenNames...), pick(r, surnames...)
	email := strings.ToLower(first+"."+last) + "@example.org"
	email = strings.NewReplacer("é", "e", "ń", "n").Replace(email)
	phone := fmt.Sprintf("+44 20 7946 %04d", r.IntN(10000))
	city := pick(r, cities...)
	add := func(f FormField) { c.Fields = append(c.Fields, f) }
	text := func(label, name, typ, value string) string {
		add(FormField{Label: label, Name: name, Value: value, Sent: value})
		id := "f" + fmt.Sprint(len(c.Fields))
		if r.IntN(2) == 0 {
			return fmt.Sprintf(`<div class="row"><label for="%s">%s</label><input id="%s" name="%s" type="%s"></div>`, id, label, id, name, typ)
		}
		return fmt.Sprintf(`<p><label>%s <input name="%s" type="%s"></label></p>`, label, name, typ)
	}
	sel := func(label, name string, opts [][2]string, want int) string {
		add(FormField{Label: label, Name: name, Value: opts[want][1], Sent: opts[want][0]})
		var o strings.Builder
		o.WriteString(`<option value="">Select…</option>`)
		for _, op := range opts {
			fmt.Fprintf(&o, `<option value="%s">%s</option>`, op[0], op[1])
		}
		return fmt.Sprintf(`<p><label>%s <select name="%s">%s</select></label></p>`, label, name, o.String())
	}
	radio := func(label, name string, opts [][2]string, want int) string {
		add(FormField{Label: label, Name: name, Value: opts[want][1], Sent: opts[want][0]})
		var o strings.Builder
		for _, op := range opts {
			fmt.Fprintf(&o, `<label><input type="radio" name="%s" value="%s"> %s</label> `, name, op[0], op[1])
		}
		return fmt.Sprintf(`<fieldset><legend>%s</legend>%s</fieldset>`, label, o.String())
	}
	check := func(label, name string) string {
		add(FormField{Label: label, Name: name, Value: "true", Sent: "yes"})
		return fmt.Sprintf(`<p><label><input type="checkbox" name="%s" value="yes"> %s</label></p>`, name, label)
	}
	area := func(label, name, value string) string {
		add(FormField{Label: label, Name: name, Value: value, Sent: value})
		return fmt.Sprintf(`<p><label>%s<br><textarea name="%s" rows="3"></textarea></label></p>`, label, name)
	}
	countries := [][2]string{{"de", "Germany"}, {"fr", "France"}, {"gb", "United Kingdom"}, {"jp", "Japan"}, {"us", "United States"}}
	yesNo := [][2]string{{"1", "Yes"}, {"0", "No"}}
	submit := pick(r, "Submit application", "Send", "Apply now", "Submit")
	c.Steps = []string{submit}
	form := func(body string) {
		fmt.Fprintf(&b, `<form method="post" action="%s">%s<button type="submit">%s</button></form>`, c.Submit, body, submit)
	}
	switch c.Kind {
	case "contact":
		form(text("Full name", "name", "text", first+" "+last) + text("Email", "email", "email", email) + text("Phone", "phone", "tel", phone) +
			sel("Country", "country", countries, r.IntN(len(countries))) +
			radio("Preferred contact", "contact_by", [][2]string{{"email", "By email"}, {"phone", "By phone"}}, r.IntN(2)) +
			area("Message", "message", pick(r, "Please call after 5pm.", "I would like a quote for 20 units.", "Is the blue one back in stock?")) +
			check("Subscribe to our newsletter", "newsletter"))
	case "repeat-several", "repeat-one-adder":
		sec := pick(r, [3]string{"Sea time", "sea_time", "vessel"}, [3]string{"Employment", "employment", "employer"}, [3]string{"Reference", "reference", "referee"})
		fieldB := map[string][2]string{"vessel": {"Rank", "rank"}, "employer": {"Job title", "job_title"}, "referee": {"Relationship", "relationship"}}[sec[2]]
		labelA := map[string]string{"vessel": "Vessel", "employer": "Employer", "referee": "Referee"}[sec[2]]
		copies := 2 + r.IntN(2)
		shown := copies
		if c.Kind == "repeat-one-adder" {
			shown = 1
			c.Traits = append(c.Traits, "repeat-from-one-copy", "add-another")
		} else {
			c.Traits = append(c.Traits, "repeat-several-copies")
		}
		vals := names(r, copies, adjectives, []string{"Star", "Wind", "Crest", "Bay", "Spirit", "Dawn", "Ltd", "GmbH"})
		var body strings.Builder
		body.WriteString(text("Full name", "name", "text", first+" "+last))
		body.WriteString(`<div id="copies">`)
		for k := range copies {
			a := FormField{Label: labelA, Name: fmt.Sprintf("%s[%d][%s]", sec[1], k, sec[2]), Value: vals[k], Sent: vals[k], Section: sec[1], Copy: k, Key: sec[2]}
			bv := pick(r, "Second officer", "Engineer", "Manager", "Former colleague", "Deckhand", "Analyst")
			bb := FormField{Label: fieldB[0], Name: fmt.Sprintf("%s[%d][%s]", sec[1], k, fieldB[1]), Value: bv, Sent: bv, Section: sec[1], Copy: k, Key: fieldB[1]}
			c.Fields = append(c.Fields, a, bb)
			if k < shown {
				title := sec[0]
				if shown > 1 {
					title = fmt.Sprintf("%s %d", sec[0], k+1)
				}
				fmt.Fprintf(&body, `<fieldset class="copy"><legend>%s</legend><p><label>%s <input name="%s"></label></p><p><label>%s <input name="%s"></label></p></fieldset>`,
					title, labelA, a.Name, fieldB[0], bb.Name)
			}
		}
		body.WriteString(`</div>`)
		if c.Kind == "repeat-one-adder" {
			adder := pick(r, "Add another "+strings.ToLower(labelA), "+ Add another", "Add another "+strings.ToLower(sec[0]))
			fmt.Fprintf(&body, `<button type="button" id="add">%s</button><script>
document.getElementById('add').addEventListener('click', () => {
  const list = document.getElementById('copies'), n = list.children.length;
  const copy = list.children[0].cloneNode(true);
  copy.querySelector('legend').textContent = %q + ' ' + (n + 1);
  if (n === 1) list.children[0].querySelector('legend').textContent = %q + ' 1';
  for (const i of copy.querySelectorAll('input')) { i.name = i.name.replace('[0]', '[' + n + ']'); i.value = ''; }
  list.append(copy);
});</script>`, adder, sec[0], sec[0])
		}
		form(body.String())
	case "wizard":
		c.Traits = append(c.Traits, "wizard")
		step1 := text("First name", "first_name", "text", first) + text("Last name", "last_name", "text", last) + text("Email address", "email", "email", email)
		step2 := text("Street address", "street", "text", fmt.Sprintf("%d %s Road", 1+r.IntN(200), pick(r, adjectives...))) + text("City", "city", "text", city) +
			sel("Country", "country", countries, r.IntN(len(countries)))
		step3 := radio("Plan", "plan", [][2]string{{"basic", "Basic"}, {"pro", "Pro"}, {"team", "Team"}}, r.IntN(3)) + check("I accept the terms", "terms")
		next := pick(r, "Next", "Continue")
		c.Steps = []string{next, next, submit}
		fmt.Fprintf(&b, `<form method="post" action="%s"><div class="step">%s<button type="button" class="go">%s</button></div>
<div class="step" hidden>%s<button type="button" class="back">Back</button> <button type="button" class="go">%s</button></div>
<div class="step" hidden>%s<button type="button" class="back">Back</button> <button type="submit">%s</button></div></form>
<script>
const steps = [...document.querySelectorAll('.step')];
const show = n => steps.forEach((s, i) => s.hidden = i !== n);
steps.forEach((s, i) => { const g = s.querySelector('.go'); if (g) g.onclick = () => show(i + 1); const k = s.querySelector('.back'); if (k) k.onclick = () => show(i - 1); });
</script>`, c.Submit, step1, next, step2, next, step3, submit)
	case "widgets":
		c.Traits = append(c.Traits, "combobox", "date-picker")
		want := r.IntN(len(countries))
		add(FormField{Label: "Nationality", Name: "nationality", Value: countries[want][1], Sent: countries[want][0]})
		var opts strings.Builder
		for _, op := range countries {
			fmt.Fprintf(&opts, `<li role="option" data-v="%s">%s</li>`, op[0], op[1])
		}
		day := 1 + r.IntN(28)
		add(FormField{Label: "Start date", Name: "start", Value: fmt.Sprintf("2026-03-%02d", day), Sent: fmt.Sprintf("%02d/03/2026", day)})
		form(text("Full name", "name", "text", first+" "+last) + fmt.Sprintf(`
<p><span id="nat-l">Nationality</span> <button type="button" id="nat" aria-haspopup="listbox" aria-labelledby="nat-l" aria-expanded="false">Choose…</button>
<ul role="listbox" id="nat-list" aria-labelledby="nat-l" hidden>%s</ul><input type="hidden" name="nationality"></p>
<p><label for="start">Start date</label> <input id="start" readonly placeholder="DD/MM/YYYY"><input type="hidden" name="start">
<div id="cal" role="dialog" aria-label="Choose a date" hidden><button type="button" aria-label="Previous month">‹</button> <span>March 2026</span> <button type="button" aria-label="Next month">›</button><table role="grid"><tbody id="days"></tbody></table></div></p>
<script>
const nat = document.getElementById('nat'), list = document.getElementById('nat-list');
nat.addEventListener('click', () => { list.hidden = false; nat.setAttribute('aria-expanded', 'true'); });
for (const o of list.children) o.addEventListener('click', () => { nat.textContent = o.textContent; document.querySelector('[name=nationality]').value = o.dataset.v; list.hidden = true; nat.setAttribute('aria-expanded', 'false'); });
const start = document.getElementById('start'), cal = document.getElementById('cal'), days = document.getElementById('days');
let row;
for (let d = 1; d <= 31; d++) {
  if ((d - 1) %% 7 === 0) { row = document.createElement('tr'); days.append(row); }
  const td = document.createElement('td'), b = document.createElement('button');
  b.type = 'button'; b.textContent = d; b.setAttribute('aria-label', d + ' March 2026');
  b.addEventListener('click', () => { const v = String(d).padStart(2, '0') + '/03/2026'; start.value = v; document.querySelector('[name=start]').value = v; cal.hidden = true; });
  td.append(b); row.append(td);
}
start.addEventListener('click', () => { cal.hidden = false; });
start.addEventListener('focus', () => { cal.hidden = false; });
</script>`, opts.String()) + check("I confirm the details are correct", "confirm"))
	case "greenhouse":
		c.Traits = append(c.Traits, "ats-greenhouse")
		c.Submit = "/embed/job_app"
		submit = "Submit Application"
		c.Steps = []string{submit}
		body := `<div id="main_fields">` + text("First Name *", "job_application[first_name]", "text", first) + text("Last Name *", "job_application[last_name]", "text", last) +
			text("Email *", "job_application[email]", "email", email) + text("Phone", "job_application[phone]", "tel", phone) + `</div>
<div id="custom_fields"><input type="hidden" name="job_application[answers_attributes][0][question_id]" value="4012">` +
			text("LinkedIn Profile", "job_application[answers_attributes][0][text_value]", "text", "https://www.linkedin.com/in/"+strings.ToLower(first)) +
			`<input type="hidden" name="job_application[answers_attributes][1][question_id]" value="4013">` +
			sel("Are you legally authorized to work in the country you applied for? *", "job_application[answers_attributes][1][boolean_value]", yesNo, r.IntN(2)) +
			`</div><div id="eeoc_fields">` + sel("Gender", "job_application[gender]", [][2]string{{"1", "Male"}, {"2", "Female"}, {"3", "Decline To Self Identify"}}, r.IntN(3)) + `</div>`
		fmt.Fprintf(&b, `<div id="application"><form id="application_form" method="post" action="%s" accept-charset="UTF-8"><input type="hidden" name="utf8" value="✓">%s<input type="submit" value="%s" id="submit_app"></form></div>
<div id="footer">Powered by <a href="https://www.greenhouse.io">Greenhouse</a></div>`, c.Submit, body, submit)
	case "ashby":
		c.Traits = append(c.Traits, "ats-ashby", "json-submit")
		c.Submit = "/api/non-user-graphql"
		submit = "Submit Application"
		c.Steps = []string{submit}
		var body strings.Builder
		for _, f := range []struct{ label, path, typ, value string }{
			{"Name", "_systemfield_name", "text", first + " " + last}, {"Email", "_systemfield_email", "email", email},
			{"Phone", "phone", "tel", phone}, {"LinkedIn", "linkedin", "text", "https://linkedin.com/in/" + strings.ToLower(last)},
		} {
			add(FormField{Label: f.label, Name: f.path, Value: f.value, Sent: f.value})
			fmt.Fprintf(&body, `<div class="ashby-application-form-field-entry"><label class="ashby-application-form-question-title" for="%s">%s</label><input id="%s" name="%s" type="%s" class="_input_1"></div>`, f.path, f.label, f.path, f.path, f.typ)
		}
		reloc := pick(r, "Yes", "No")
		add(FormField{Label: "Are you open to relocation?", Name: "relocation", Value: reloc, Sent: map[string]string{"Yes": "true", "No": "false"}[reloc]})
		body.WriteString(`<div class="ashby-application-form-field-entry"><fieldset><legend class="ashby-application-form-question-title">Are you open to relocation?</legend>
<label><input type="radio" name="relocation" value="true"> Yes</label> <label><input type="radio" name="relocation" value="false"> No</label></fieldset></div>`)
		fmt.Fprintf(&b, `<div id="root"><div class="ashby-job-posting-right-pane"><div class="ashby-application-form-container">%s
<button type="button" class="ashby-application-form-submit-button">%s</button></div></div></div><script>
document.querySelector('.ashby-application-form-submit-button').addEventListener('click', () => {
  const fieldSubmissions = [];
  for (const e of document.querySelectorAll('.ashby-application-form-container input')) {
    if (e.type === 'radio' && !e.checked) continue;
    fieldSubmissions.push({path: e.name, value: e.value});
  }
  fetch('%s?op=ApiSubmitSingleApplicationFormAction', {method: 'POST', headers: {'content-type': 'application/json'},
    body: JSON.stringify({operationName: 'ApiSubmitSingleApplicationFormAction', variables: {applicationForm: {fieldSubmissions}}})})
    .then(() => { document.querySelector('.ashby-application-form-container').innerHTML = '<p>Thanks for applying!</p>'; });
});</script><footer>Powered by <a href="https://www.ashbyhq.com">Ashby</a></footer>`, body.String(), submit, c.Submit)
	case "lever":
		c.Traits = append(c.Traits, "ats-lever")
		submit = "Submit application"
		c.Steps = []string{submit}
		form(`<div class="application-page"><ul class="application-fields">` +
			text("Full name✱", "name", "text", first+" "+last) + text("Email✱", "email", "email", email) + text("Phone", "phone", "tel", phone) +
			text("Current company", "org", "text", pick(r, "Acme Ltd", "Globex GmbH", "Initech SA")) +
			text("LinkedIn URL", "urls[LinkedIn]", "url", "https://linkedin.com/in/"+strings.ToLower(first)) +
			text("GitHub URL", "urls[GitHub]", "url", "https://github.com/"+strings.ToLower(last)) +
			area("Why do you want to join us?", "cards[9f1c2e][field0]", "I like the product and the team.") +
			`</ul><div class="eeo">` + sel("Gender", "eeo[gender]", [][2]string{{"Male", "Male"}, {"Female", "Female"}, {"Decline to self-identify", "Decline to self-identify"}}, r.IntN(3)) +
			`</div></div>`)
		b.WriteString(`<div class="main-footer"><a href="https://jobs.lever.co">Jobs powered by Lever</a></div>`)
	case "workday":
		c.Traits = append(c.Traits, "ats-workday", "wizard", "combobox")
		c.Submit = "/wday/cxs/apply"
		want := r.IntN(3)
		src := [][2]string{{"linkedin", "LinkedIn"}, {"referral", "Employee Referral"}, {"website", "Company Website"}}
		wd := func(label, aid, typ, value string) string {
			add(FormField{Label: label, Name: aid, Value: value, Sent: value})
			return fmt.Sprintf(`<div data-automation-id="formField-%s"><label for="%s">%s</label><input id="%s" data-automation-id="%s" type="%s"></div>`, aid, aid, label, aid, aid, typ)
		}
		step1 := wd("Given Name(s)", "legalNameSection_firstName", "text", first) + wd("Family Name", "legalNameSection_lastName", "text", last) + wd("Email Address", "email", "email", email)
		add(FormField{Label: "How Did You Hear About Us?", Name: "source", Value: src[want][1], Sent: src[want][0]})
		var opts strings.Builder
		for _, o := range src {
			fmt.Fprintf(&opts, `<div role="option" data-v="%s">%s</div>`, o[0], o[1])
		}
		step2 := fmt.Sprintf(`<div data-automation-id="formField-source"><span id="src-l">How Did You Hear About Us?</span>
<button type="button" id="src" aria-haspopup="listbox" aria-labelledby="src-l" data-automation-id="sourceDropdown">Select One</button><div role="listbox" id="src-list" hidden>%s</div></div>`, opts.String()) +
			wd("City", "addressSection_city", "text", city)
		c.Steps = []string{"Save and Continue", "Submit"}
		fmt.Fprintf(&b, `<div data-automation-id="applyFlowPage"><div class="wd-step" data-automation-id="myInformationPage">%s<button type="button" data-automation-id="bottom-navigation-next-button">Save and Continue</button></div>
<div class="wd-step" data-automation-id="applicationQuestionsPage" hidden>%s<button type="button" data-automation-id="bottom-navigation-next-button">Submit</button></div></div>
<script>
let source = '';
const btn = document.getElementById('src'), list = document.getElementById('src-list');
btn.addEventListener('click', () => { list.hidden = false; });
for (const o of list.children) o.addEventListener('click', () => { btn.textContent = o.textContent; source = o.dataset.v; list.hidden = true; });
const steps = document.querySelectorAll('.wd-step');
steps[0].querySelector('button[data-automation-id=bottom-navigation-next-button]').onclick = () => { steps[0].hidden = true; steps[1].hidden = false; };
steps[1].querySelector('button[data-automation-id=bottom-navigation-next-button]').onclick = () => {
  const body = {source};
  for (const e of document.querySelectorAll('[data-automation-id=applyFlowPage] input')) body[e.dataset.automationId] = e.value;
  fetch('%s', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)}).then(() => { document.body.insertAdjacentHTML('beforeend', '<p>Application submitted</p>'); });
};</script><footer>© Workday, Inc.</footer>`, step1, step2, c.Submit)
	}
	title := map[string]string{"contact": "Contact us", "repeat-several": "Crew application", "repeat-one-adder": "Crew application", "wizard": "Sign up",
		"widgets": "Registration", "greenhouse": "Job Application", "ashby": "Application", "lever": "Apply", "workday": "Apply"}[c.Kind]
	c.html = fmt.Sprintf(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body><main><h1>%s</h1>%s</main></body></html>`, title, title, b.String())
	c.Name = fmt.Sprintf("%02d-%s", i+1, c.Kind)
	return c
}

// Handler serves the form at / and takes its send at Submit, keeping
// what arrived.
func (c *FormCase) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.URL.Path == "/" && req.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, c.html)
		case req.URL.Path == c.Submit && req.Method == http.MethodPost:
			b, _ := io.ReadAll(req.Body)
			got := map[string]string{}
			if strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
				flatten(b, got)
			} else if q, err := url.ParseQuery(string(b)); err == nil {
				for k, v := range q {
					got[k] = strings.Join(v, ",")
				}
			}
			c.mu.Lock()
			c.got, c.sent = got, c.sent+1
			c.mu.Unlock()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<!doctype html><title>Thank you</title><h1>Thank you</h1>`)
		default:
			http.NotFound(w, req)
		}
	})
}

// Received is what the last send held, by field name, and how many sends
// reached the server.
func (c *FormCase) Received() (map[string]string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got, c.sent
}

// flatten reads a JSON send: Ashby's fieldSubmissions ({path, value}) or
// a flat object.
func flatten(b []byte, out map[string]string) {
	var v struct {
		Variables struct {
			ApplicationForm struct {
				FieldSubmissions []struct {
					Path  string `json:"path"`
					Value any    `json:"value"`
				} `json:"fieldSubmissions"`
			} `json:"applicationForm"`
		} `json:"variables"`
	}
	if json.Unmarshal(b, &v) == nil && len(v.Variables.ApplicationForm.FieldSubmissions) > 0 {
		for _, f := range v.Variables.ApplicationForm.FieldSubmissions {
			out[f.Path] = fmt.Sprint(f.Value)
		}
		return
	}
	var m map[string]any
	if json.Unmarshal(b, &m) == nil {
		for k, x := range m {
			out[k] = fmt.Sprint(x)
		}
	}
}
