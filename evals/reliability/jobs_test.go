//go:build evals

package reliability

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
)

// job is one data job: its site (what it serves on a day), how it is
// recorded on day 0, and what the day's truth is.
type job struct {
	name    string
	kind    string   // list, ledger, api, sheet, each, sign-in
	changes []string // the day changes that apply to it besides churn and down
	// The job's button and its words on a renamed day.
	button, renamed string
	// A list: n rows on day 0; row makes row i from its own seed (its
	// key) and the day's (its values).
	n      int
	fields []string
	row    func(key, day *rand.Rand, i int) map[string]string
	// serve answers a request to the job's site (path below /j/NAME).
	serve func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string)
	// record records the routine on day 0, in a live session.
	record func(rc *recorder) error
	// ledger: the entries the job is to write on a day (its inputs).
	entries func(s *site, day int) []map[string]string
}

var (
	people   = []string{"Ada Park", "Ben Ortiz", "Cleo Hart", "Dev Rao", "Eve Stone", "Finn Lake", "Gia Moss", "Hal Reed", "Ivy Cole", "Jon Wu", "Kai Finch", "Lea Ross", "Max Dunn", "Nia Fox", "Oto Bell"}
	products = []string{"Desk lamp", "Oak shelf", "Wool rug", "Steel mug", "Linen throw", "Clay vase", "Wall clock", "Floor fan", "Cork board", "Glass jar", "Reading chair", "Bath mat", "Tea kettle", "Spice rack", "Pine stool"}
	cities   = []string{"Leeds", "Porto", "Ghent", "Lyon", "Turku", "Brno", "Cork", "Bergen", "Graz", "Malmo"}
	projects = []string{"Atlas", "Beacon", "Cobalt", "Delta", "Ember"}
)

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }
func money(r *rand.Rand) string               { return fmt.Sprintf("%d.%02d", 5+r.IntN(900), r.IntN(100)) }

// jobs are the eval's twelve jobs.
func jobs() []*job {
	return []*job{
		listJob("orders", "Orders", []string{"Order", "Customer", "Total", "Status"}, []string{"order", "customer", "total", "status"}, 10,
			func(k, d *rand.Rand, i int) map[string]string {
				return map[string]string{"order": fmt.Sprintf("A-%d", 1001+i), "customer": people[i%len(people)], "total": money(d), "status": pick(d, []string{"Paid", "Open", "Shipped"})}
			}),
		cardsJob(),
		ticketsJob(),
		reportJob(),
		statementJob(),
		apiJob("stock", "Stock", []string{"sku", "item", "qty"}, func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"sku": fmt.Sprintf("SKU-%03d", 100+i), "item": products[i%len(products)], "qty": fmt.Sprint(d.IntN(400))}
		}),
		apiJob("prices", "Prices", []string{"code", "product", "price"}, func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"code": fmt.Sprintf("P%02d", 10+i), "product": products[(i+5)%len(products)], "price": money(d)}
		}),
		sheetJob(),
		approvalsJob(),
		ledgerJob("expense", "New expense", "Save entry", "Record entry", []string{"Date", "Amount", "Payee"}, []string{"date", "amount", "payee"}, false,
			func(r *rand.Rand) map[string]string {
				return map[string]string{"date": fmt.Sprintf("2026-11-%02d", 1+r.IntN(28)), "amount": money(r), "payee": pick(r, people)}
			}),
		ledgerJob("contacts", "New contact", "Add contact", "Create contact", []string{"Name", "Email", "City"}, []string{"name", "email", "city"}, false,
			func(r *rand.Rand) map[string]string {
				n := pick(r, people)
				return map[string]string{"name": n, "email": strings.ToLower(strings.ReplaceAll(n, " ", ".")) + fmt.Sprintf("%d@example.com", r.IntN(99)), "city": pick(r, cities)}
			}),
		ledgerJob("timesheet", "Log hours", "Save hours", "Submit hours", []string{"Day", "Project", "Hours"}, []string{"day", "project", "hours"}, true,
			func(r *rand.Rand) map[string]string {
				return map[string]string{"day": fmt.Sprintf("2026-11-%02d", 1+r.IntN(28)), "project": pick(r, projects), "hours": fmt.Sprint(1 + r.IntN(8))}
			}),
	}
}

// listJob is a table over pages of 5 rows, read by a recipe over two
// pages (following "Next page").
func listJob(name, title string, headers, fields []string, n int, row func(k, d *rand.Rand, i int) map[string]string) *job {
	j := &job{name: name, kind: "list", changes: []string{ChangeRows}, n: n, fields: fields, row: row}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		if path != "/" {
			http.NotFound(w, r)
			return
		}
		rows := t.rows()
		body := ""
		if r.URL.Query().Get("page") == "2" {
			body = t.skin.table(name, headers, fields, rows[min(5, len(rows)):], nil) + `<p><a href="?page=1">Previous page</a></p>`
		} else {
			body = t.skin.table(name, headers, fields, rows[:min(5, len(rows))], nil) + `<p><a href="?page=2" rel="next">Next page</a></p>`
		}
		writeHTML(w, t.skin.page(title, body))
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("open", "/j/"+name+"/")
		return rc.extract("rows", "every "+name+" row", fields, rc.truth()[:5], &listRead{pages: 2})
	}
	return j
}

// cardsJob is a catalogue of cards (a heading, a code, a price).
func cardsJob() *job {
	fields := []string{"name", "sku", "price"}
	j := &job{name: "catalog", kind: "list", changes: []string{ChangeRows}, n: 8, fields: fields,
		row: func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"name": products[i%len(products)], "sku": fmt.Sprintf("C-%04d", 2000+i*7), "price": money(d)}
		}}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		var b strings.Builder
		for _, row := range t.rows() {
			b.WriteString(`<article` + k.cls("card") + `><h2>` + row["name"] + `</h2><p` + k.cls("sku") + `>Code <code>` + row["sku"] + `</code></p><span` + k.cls("price") + `>` + row["price"] + `</span></article>`)
		}
		writeHTML(w, k.page("Catalogue", k.wrap(`<section`+k.id("cards")+k.cls("grid")+`>`+b.String()+`</section>`)))
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("open", "/j/catalog/")
		return rc.extract("rows", "every product card", fields, rc.truth(), nil)
	}
	return j
}

// ticketsJob is a list of items with a title, a status and an owner.
func ticketsJob() *job {
	fields := []string{"title", "status", "owner"}
	j := &job{name: "tickets", kind: "list", changes: []string{ChangeRows}, n: 7, fields: fields,
		row: func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"title": fmt.Sprintf("Ticket %d: %s broken", 300+i, products[i%len(products)]), "status": pick(d, []string{"New", "Open", "Waiting", "Closed"}), "owner": pick(d, people)}
		}}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		var b strings.Builder
		for _, row := range t.rows() {
			b.WriteString(`<li` + k.cls("ticket") + `><strong>` + row["title"] + `</strong> <em>` + row["status"] + `</em> <span` + k.cls("owner") + `>` + row["owner"] + `</span></li>`)
		}
		writeHTML(w, k.page("Tickets", k.wrap(`<ul`+k.id("tickets")+`>`+b.String()+`</ul>`)))
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("open", "/j/tickets/")
		return rc.extract("rows", "every ticket", fields, rc.truth(), nil)
	}
	return j
}

// reportJob is a page whose table a button shows.
func reportJob() *job {
	fields := []string{"region", "revenue"}
	regions := []string{"North", "South", "East", "West", "Central", "Coast"}
	j := &job{name: "report", kind: "list", changes: []string{ChangeRows, ChangeRenamed}, n: 5, fields: fields, button: "Show report", renamed: "View report",
		row: func(k, d *rand.Rand, i int) map[string]string {
			return map[string]string{"region": regions[i%len(regions)] + fmt.Sprint(" ", i+1), "revenue": money(d)}
		}}
	j.serve = func(s *site, t *today, w http.ResponseWriter, r *http.Request, path string) {
		k := t.skin
		data, _ := json.Marshal(t.rows())
		body := `<p>The weekly report is ready.</p><button type="button"` + k.cls("show") + ` onclick="show()">` + t.button() + `</button><div` + k.id("out") + `></div>
<script>const data = ` + string(data) + `;
function show() { let h = '<table` + k.cls("report") + `><thead><tr><th>Region</th><th>Revenue</th></tr></thead><tbody>';
for (const r of data) h += '<tr><td>' + r.region + '</td><td>' + r.revenue + '</td></tr>';
document.getElementById('` + k.token("out") + `').innerHTML = h + '</tbody></table><p>Report shown.</p>'; }</script>`
		writeHTML(w, k.page("Weekly report", body))
	}
	j.record = func(rc *recorder) error {
		rc.gotoStep("open", "/j/report/")
		if err := rc.click("show", "button", "Show report"); err != nil {
			return err
		}
		rc.verify("shown", "Report shown")
		return rc.extract("rows", "every region's revenue", fields, rc.truth(), nil)
	}
	return j
}
