//go:build evals

package reliability

import (
	"fmt"
	"hash/fnv"
	"html"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Day changes. Each job's site draws one a day from the seed (day 0, the
// recording day, is always plain).
const (
	ChangeNone     = "none"
	ChangeChurn    = "churn"    // classes, ids and wrappers regenerated
	ChangeRows     = "rows"     // the rows reordered, some added
	ChangeRenamed  = "renamed"  // the job's button under new words
	ChangeRequired = "required" // a new required field on the form
	ChangeMoved    = "moved"    // the API moved to a new path
	ChangeRate     = "rate"     // the API answers 429 (Retry-After: 1) once, then OK
	ChangeDown     = "down"     // the site answers 503 all day
)

// possible says whether a job can be done on a day with this change:
// a site down all day, or a form asking for a field the job has no value
// for, cannot be; every other change should be coped with.
func possible(change string) bool { return change != ChangeDown && change != ChangeRequired }

// hash mixes the parts into a seed.
func hash(parts ...any) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		fmt.Fprint(h, p, "\x00")
	}
	return h.Sum64()
}

func rng(parts ...any) *rand.Rand { return rand.New(rand.NewPCG(hash(parts...), 0x5eed)) }

// site is every job's loopback site at once (a path prefix a job, /j/NAME/),
// on one day at a time. The truth of the day (the rows each site holds, the
// entries each ledger was sent, the approvals made) is kept here, never in
// a page.
type site struct {
	seed uint64
	jobs map[string]*job
	mu   sync.Mutex
	day  int
	// What the day's requests did, by job.
	ledger   map[string][]map[string]string // entries saved
	approved map[string][]string            // ids approved
	rated    map[string]bool                // the day's one 429 was answered
}

func newSite(seed uint64, jobs []*job) *site {
	s := &site{seed: seed, jobs: map[string]*job{}}
	for _, j := range jobs {
		s.jobs[j.name] = j
	}
	s.setDay(0)
	return s
}

// setDay turns every site to day d and forgets the requests of the day
// before.
func (s *site) setDay(d int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.day = d
	s.ledger, s.approved, s.rated = map[string][]map[string]string{}, map[string][]string{}, map[string]bool{}
}

// change is the day's change of a job's site, drawn from the seed among
// the changes that apply to its kind.
func (s *site) change(j *job, day int) string {
	if day == 0 {
		return ChangeNone
	}
	kinds := []string{ChangeNone, ChangeNone, ChangeChurn, ChangeChurn, ChangeDown}
	kinds = append(kinds, j.changes...)
	return kinds[rng(s.seed, j.name, day, "change").IntN(len(kinds))]
}

// rows is the list a job's site holds on a day: the same rows every day
// (their keys from the seed), their values moving day by day, reordered
// with some added on a rows day.
func (s *site) rows(j *job, day int) []map[string]string {
	if j.row == nil {
		return nil
	}
	var out []map[string]string
	for i := range j.n {
		out = append(out, j.row(rng(s.seed, j.name, i), rng(s.seed, j.name, i, day), i))
	}
	if s.change(j, day) == ChangeRows {
		r := rng(s.seed, j.name, day, "rows")
		for i := range 1 + r.IntN(3) {
			out = append(out, j.row(rng(s.seed, j.name, j.n+i), rng(s.seed, j.name, j.n+i, day), j.n+i))
		}
		r.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	}
	return out
}

// skin is how a page is marked up on a day: day 0's classes and ids, or,
// on a churn day, new ones and extra wrappers.
type skin struct{ salt string }

func (s *site) skin(j *job, day int) skin {
	if s.change(j, day) != ChangeChurn {
		return skin{}
	}
	return skin{salt: fmt.Sprintf("%x", hash(s.seed, j.name, day))[:6]}
}

func (k skin) token(base string) string {
	if k.salt == "" {
		return base
	}
	return fmt.Sprintf("%c%x", 'a'+hash(k.salt, base)%26, hash(base, k.salt)%0xfffff)
}

// cls is a class attribute.
func (k skin) cls(base string) string { return ` class="` + k.token(base) + `"` }

// id is an id attribute.
func (k skin) id(base string) string { return ` id="` + k.token(base) + `"` }

// wrap puts the churn day's wrappers around h.
func (k skin) wrap(h string) string {
	if k.salt == "" {
		return h
	}
	n := 1 + int(hash(k.salt, h[:min(len(h), 20)])%2)
	for i := range n {
		h = `<div` + k.cls(fmt.Sprint("w", i)) + `>` + h + `</div>`
	}
	return h
}

// page is a whole page.
func (k skin) page(title, body string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>` + title + `</title></head><body>` +
		k.wrap(`<main`+k.cls("main")+`><h1>`+title+`</h1>`+body+`</main>`) + `</body></html>`
}

// table is a table of rows under headers, one column a field; extra adds
// cells after them.
func (k skin) table(name string, headers, fields []string, rows []map[string]string, extra func(map[string]string) string) string {
	var b strings.Builder
	b.WriteString(`<table` + k.id(name) + k.cls(name+"-table") + `><thead><tr>`)
	for _, h := range headers {
		b.WriteString(`<th>` + h + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, r := range rows {
		b.WriteString(`<tr` + k.cls("row") + `>`)
		for _, f := range fields {
			b.WriteString(`<td>` + html.EscapeString(r[f]) + `</td>`)
		}
		if extra != nil {
			b.WriteString(extra(r))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return k.wrap(b.String())
}

// field is a labelled input of a form.
func (k skin) field(label, name, typ string) string {
	return `<div` + k.cls("field") + `><label for="` + k.token("f-"+name) + `">` + label + `</label><input` + k.id("f-"+name) +
		` name="` + name + `" type="` + typ + `" required></div>`
}

// ServeHTTP routes /j/NAME/… to the job's site, as it is today.
func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/j/")
	name, sub, _ := strings.Cut(rest, "/")
	j := s.jobs[name]
	if !ok || j == nil {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	day := s.day
	s.mu.Unlock()
	change := s.change(j, day)
	if change == ChangeDown {
		w.Header().Set("Retry-After", "86400")
		http.Error(w, "503 Service Unavailable: down for maintenance", http.StatusServiceUnavailable)
		return
	}
	j.serve(s, &today{site: s, job: j, day: day, change: change, skin: s.skin(j, day)}, w, r, "/"+sub)
}

// today is what a job's handler knows of the day.
type today struct {
	site   *site
	job    *job
	day    int
	change string
	skin   skin
}

func (t *today) rows() []map[string]string { return t.site.rows(t.job, t.day) }

// base is the job's path prefix.
func (t *today) base() string { return "/j/" + t.job.name }

// button is the words of the job's button today.
func (t *today) button() string {
	if t.change == ChangeRenamed {
		return t.job.renamed
	}
	return t.job.button
}

func (t *today) save(entry map[string]string) int {
	t.site.mu.Lock()
	defer t.site.mu.Unlock()
	t.site.ledger[t.job.name] = append(t.site.ledger[t.job.name], entry)
	return len(t.site.ledger[t.job.name])
}

func (t *today) approve(id string) {
	t.site.mu.Lock()
	defer t.site.mu.Unlock()
	t.site.approved[t.job.name] = append(t.site.approved[t.job.name], id)
}

// rateOnce answers the day's one 429 on a rate day: true when it did.
func (t *today) rateOnce(w http.ResponseWriter) bool {
	if t.change != ChangeRate {
		return false
	}
	t.site.mu.Lock()
	done := t.site.rated[t.job.name]
	t.site.rated[t.job.name] = true
	t.site.mu.Unlock()
	if done {
		return false
	}
	w.Header().Set("Retry-After", "1")
	http.Error(w, "429 Too Many Requests", http.StatusTooManyRequests)
	return true
}

func writeHTML(w http.ResponseWriter, page string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(page))
}

// saved is the ledger entries a job's site was sent today, and the ids
// it approved.
func (s *site) saved(name string) ([]map[string]string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ledger[name]), slices.Clone(s.approved[name])
}
