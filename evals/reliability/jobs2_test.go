//go:build evals

package reliability

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
)

// The sign-in job's user and password (a secret variable of the routine).
const (
	user     = "ann"
	password = "tr0ub4dor-Horse-7"
)

// statementJob signs in (a secret password) and reads the statement.
func statementJob() *job {
	fields := []string{"date", "description", "amount"}
	j := &job{name: "statement", kind: "sign-in", changes: []string{ChangeRows, ChangeRenamed}, n: 6, fields: fields, button: "Sign in", renamed: "Log in",
		row: func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"date": fmt.Sprintf("2026-10-%02d", 1+i*4), "description": "Card payment " + products[(i+3)%len(products)], "amount": money(d)}
		}}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		switch path {
		case "/login":
			if r.Method == http.MethodPost {
				if r.FormValue("username") != user || r.FormValue("password") != password {
					writeHTML(w, k.page("Sign in", `<p>Wrong user name or password.</p>`))
					return
				}
				http.SetCookie(w, &http.Cookie{Name: "sid", Value: fmt.Sprint("ok-", t.day), Path: "/"})
				http.Redirect(w, r, t.base()+"/", http.StatusSeeOther)
				return
			}
			writeHTML(w, k.page("Sign in", `<form method="post" action="`+t.base()+`/login"`+k.cls("login")+`>`+k.field("Username", "username", "text")+
				k.field("Password", "password", "password")+`<button type="submit"`+k.cls("go")+`>`+t.button()+`</button></form>`))
		case "/":
			if c, err := r.Cookie("sid"); err != nil || c.Value != fmt.Sprint("ok-", t.day) {
				http.Redirect(w, r, t.base()+"/login", http.StatusSeeOther)
				return
			}
			writeHTML(w, k.page("Statement", t.skin.table("statement", []string{"Date", "Description", "Amount"}, fields, t.rows(), nil)))
		default:
			http.NotFound(w, r)
		}
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("login", "/j/statement/login")
		if err := rc.fill("user", &valueOf{slot: "username"}, user, "textbox", "Username"); err != nil {
			return err
		}
		if err := rc.fill("password", &valueOf{secret: "password"}, password, "textbox", "Password"); err != nil {
			return err
		}
		if err := rc.click("signin", "button", "Sign in"); err != nil {
			return err
		}
		rc.verify("in", "Statement")
		return rc.extract("rows", "every line of the statement", fields, rc.truth(), nil)
	}
	return j
}

// apiJob is a page whose table its script fills from the site's JSON
// API; the job reads the API (an api step) with the page as its fallback.
func apiJob(name, title string, fields []string, row func(k, d *rand.Rand, i int) map[string]string) *job {
	j := &job{name: name, kind: "api", changes: []string{ChangeRows, ChangeMoved, ChangeRate}, n: 8, fields: fields, row: row}
	headers := make([]string, len(fields))
	for i, f := range fields {
		headers[i] = strings.ToUpper(f[:1]) + f[1:]
	}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		api := t.base() + "/api/v1/items"
		if t.change == ChangeMoved {
			api = t.base() + "/api/v2/" + name
		}
		switch {
		case path == "/":
			cells := ""
			for _, f := range fields {
				cells += `<td>' + r.` + f + ` + '</td>`
			}
			writeHTML(w, k.page(title, k.table(name, headers, fields, nil, nil)+`<p`+k.id("note")+`>Loading…</p>
<script>fetch('`+api+`').then(r => r.json()).then(d => {
  let h = ''; for (const r of d.items) h += '<tr>`+cells+`</tr>';
  document.querySelector('table tbody').innerHTML = h;
  document.getElementById('`+k.token("note")+`').textContent = d.items.length + ' items listed';
}).catch(e => { document.getElementById('`+k.token("note")+`').textContent = 'Could not load the list'; });</script>`))
		case path == "/api/v1/items" || path == "/api/v2/"+name:
			if t.base()+path != api {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"error":"not found"}`))
				return
			}
			if t.rateOnce(w) {
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"items": t.rows(), "count": len(t.rows())})
		default:
			http.NotFound(w, r)
		}
	}
	j.record = func(rc *recorder) error { return rc.api(name, fields) }
	return j
}

// sheetJob reads a range of the real spreadsheet (Jspreadsheet CE),
// whose rows the site holds.
func sheetJob() *job {
	fields := []string{"item", "qty", "bin"}
	j := &job{name: "sheet", kind: "sheet", changes: []string{ChangeRows}, n: 6, fields: fields,
		row: func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"item": products[(i+2)%len(products)], "qty": fmt.Sprint(d.IntN(90)), "bin": fmt.Sprintf("B%d", 10+i)}
		}}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		if path != "/" {
			sheetAssets.ServeHTTP(w, r)
			return
		}
		data := [][]string{{"Item", "Qty", "Bin"}}
		for _, row := range t.rows() {
			data = append(data, []string{row["item"], row["qty"], row["bin"]})
		}
		writeHTML(w, sheetPage(data))
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("open", "/j/sheet/")
		rc.sheetRead("rows", "A1:C16")
		return nil
	}
	return j
}

// approvalsJob presses "Approve" in every row of a table (an each over
// the rows a recipe reads, the button at its place in the row).
func approvalsJob() *job {
	fields := []string{"id", "requester", "amount"}
	j := &job{name: "approvals", kind: "each", changes: []string{ChangeRows}, n: 4, fields: fields,
		row: func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"id": fmt.Sprintf("R-%d", 7001+i), "requester": people[(i+4)%len(people)], "amount": money(d)}
		}}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		switch path {
		case "/approve":
			if r.Method != http.MethodPost {
				http.Error(w, "POST", http.StatusMethodNotAllowed)
				return
			}
			t.approve(r.URL.Query().Get("id"))
			w.WriteHeader(http.StatusNoContent)
		case "/":
			tbl := k.table("requests", []string{"Request", "Requester", "Amount", ""}, fields, t.rows(), func(row map[string]string) string {
				return `<td><button type="button" onclick="approve(this, '` + row["id"] + `')">Approve</button></td>`
			})
			writeHTML(w, k.page("Requests to approve", tbl+`<script>function approve(b, id) {
  fetch('`+t.base()+`/approve?id=' + id, {method: 'POST'}).then(() => { b.textContent = 'Approved'; b.disabled = true; }); }</script>`))
		default:
			http.NotFound(w, r)
		}
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("open", "/j/approvals/")
		return rc.each("approve", "approve every request", fields, rc.truth(), "td:nth-of-type(4) > button:nth-of-type(1)", "Approve")
	}
	return j
}

// ledgerJob fills a form and saves it: one entry a day, or (each) a
// list of entries, one form each.
func ledgerJob(name, title, button, renamed string, labels, fields []string, each bool, entry func(r *rand.Rand) map[string]string) *job {
	j := &job{name: name, kind: "ledger", changes: []string{ChangeRenamed, ChangeRequired}, button: button, renamed: renamed, fields: fields}
	if each {
		j.kind = "each"
	}
	j.entries = func(s *site, day int) []map[string]string {
		n := 1
		if each {
			n = 3
		}
		var out []map[string]string
		for i := range n {
			out = append(out, entry(rng(s.seed, name, day, "entry", i)))
		}
		return out
	}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		switch path {
		case "/new":
			form := ""
			for i, l := range labels {
				form += k.field(l, fields[i], "text")
			}
			if t.change == ChangeRequired {
				form += k.field("Cost centre", "cost_centre", "text")
			}
			writeHTML(w, k.page(title, `<form method="post" action="`+t.base()+`/save"`+k.cls("entry")+`>`+form+`<button type="submit"`+k.cls("save")+`>`+t.button()+`</button></form>`))
		case "/save":
			if r.Method != http.MethodPost {
				http.Error(w, "POST", http.StatusMethodNotAllowed)
				return
			}
			e := map[string]string{}
			for _, f := range fields {
				if e[f] = r.FormValue(f); e[f] == "" {
					w.WriteHeader(http.StatusUnprocessableEntity)
					writeHTML(w, k.page(title, `<p>`+f+` is required.</p>`))
					return
				}
			}
			if t.change == ChangeRequired && r.FormValue("cost_centre") == "" {
				w.WriteHeader(http.StatusUnprocessableEntity)
				writeHTML(w, k.page(title, `<p>Cost centre is required.</p>`))
				return
			}
			n := t.save(e)
			http.Redirect(w, r, fmt.Sprintf("%s/saved?n=%d", t.base(), n), http.StatusSeeOther)
		case "/saved":
			writeHTML(w, k.page("Saved", `<p>Saved entry `+r.URL.Query().Get("n")+`.</p><p><a href="`+t.base()+`/new">Another</a></p>`))
		default:
			http.NotFound(w, r)
		}
	}
	j.record = func(rc *recorder) error {
		first := j.entries(rc.site, 0)[0]
		return rc.ledger(name, labels, fields, first, button, each)
	}
	return j
}
