// Package rules is the corpus the rules model (model/rules, the model
// waymark uses with no key) is measured on: small web tasks in the manner
// of MiniWoB++ (enter-text, login-user, choose-list, search-engine,
// click-link, email-inbox, use-autocomplete, enter-date, …), on pages of
// our own generated from a seed. Each task is given twice: as the plain
// steps a person would write for act, and as the raw sentence the
// benchmark shows. The eval (eval_test.go, build tag evals) runs both
// through the no-key path over a real Chromium and counts, at the loopback
// server, whether the task's answer arrived: make evals.
package rules

import (
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
)

// Task is one generated task.
type Task struct {
	Name   string // "07-search-engine"
	Family string // the generator: "search-engine"
	// Class is what the task's plain steps lean on (issue 31, item 7):
	// plain (names the page gives), kind (a field named by its kind),
	// list (a list named as a list), ordinal (counting results or links),
	// row (a row's text), opened (a menu the step's typing opened).
	Class string
	HTML  string   // the page, served at /
	Steps []string // the plain steps, one act each
	Raw   string   // the task as the benchmark writes it
	// Want is what must reach the server: a POST to /submit whose form
	// fields hold these values (Path empty), or a GET of Path whose query
	// holds them.
	Want map[string]string
	Path string
}

var (
	names = []string{"Kasey", "Gretchen", "Dixie", "Rozelle", "Marcus", "Alethea", "Kanesha", "Jerald", "Ilse",
		"Brandon", "Tamra", "Ollie", "Nieves", "Deon", "Lyndsey", "Sergio", "Ona", "Farrah", "Hassan", "Wilda"}
	words = []string{"lorem", "ipsum", "dolor", "amet", "tempus", "magna", "nulla", "fusce", "vitae", "proin",
		"augue", "velit", "cursus", "massa", "odio", "purus", "risus", "justo", "felis", "urna"}
	places = []string{"Antarctica", "Antigua", "Argentina", "Armenia", "Australia", "Austria", "Angola", "Andorra",
		"Bahamas", "Belgium", "Bolivia", "Botswana", "Brazil", "Bulgaria"}
)

// family makes one task of its kind from the random source.
type family struct {
	name, class string
	make        func(r *rand.Rand) Task
}

var families = []family{
	{"enter-text", "kind", enterText},
	{"enter-date", "kind", enterDate},
	{"enter-password", "kind", enterPassword},
	{"login-user", "plain", loginUser},
	{"choose-list", "list", chooseList},
	{"choose-listbox", "list", chooseListbox},
	{"search-engine", "ordinal", searchEngine},
	{"click-nth-link", "ordinal", clickNthLink},
	{"click-link", "plain", clickLink},
	{"email-inbox", "row", emailInbox},
	{"use-autocomplete", "opened", useAutocomplete},
	{"click-button", "plain", clickButton},
	{"click-checkboxes", "plain", clickCheckboxes},
	{"click-dialog", "plain", clickDialog},
	{"click-tab", "plain", clickTab},
}

// Generate makes n tasks from seed: every family in turn, so that each
// has n/len(families) tasks or one more.
func Generate(seed uint64, n int) []Task {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	out := make([]Task, 0, n)
	for i := range n {
		f := families[i%len(families)]
		t := f.make(r)
		t.Name, t.Family, t.Class = fmt.Sprintf("%02d-%s", i+1, f.name), f.name, f.class
		out = append(out, t)
	}
	return out
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// some returns k different items of xs in random order.
func some[T any](r *rand.Rand, xs []T, k int) []T {
	p := r.Perm(len(xs))
	out := make([]T, k)
	for i := range k {
		out[i] = xs[p[i]]
	}
	return out
}

// page wraps a body as MiniWoB does: the task's sentence on top, the
// widget below.
func page(query, body, script string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>Task</title><style>
body{font:14px sans-serif;margin:8px;width:320px} #query{background:#ff0;padding:4px;margin-bottom:8px}
.menu{position:absolute;background:#fff;border:1px solid #888;list-style:none;margin:0;padding:0;width:240px;z-index:5}
.menu li{padding:4px;cursor:pointer} .email{border-bottom:1px solid #ccc;padding:4px;cursor:pointer}
[role=tabpanel]{padding:8px} [role=listbox]{border:1px solid #888;list-style:none;padding:0;width:160px}
[role=option][aria-selected=true]{background:#9cf} dialog{position:fixed;top:40px}
</style></head><body><div id="query">` + query + `</div><div id="area">` + body + `</div>
<script>
// The answer is sent as a form would send it; its response is read, as a
// page's own script reads it.
function send(fields){fetch('/submit',{method:'POST',headers:{'Content-Type':'application/x-www-form-urlencoded'},body:new URLSearchParams(fields).toString()}).then(r=>r.text());}
` + script + `</script></body></html>`
}

func q(s string) string { return html.EscapeString(s) }

func enterText(r *rand.Rand) Task {
	v := pick(r, names)
	kind := pick(r, []string{"the text field", "the textbox", "the text input", "the input"})
	verb := pick(r, []string{"type %s into %s", "enter %s in %s", "fill %[2]s with %[1]s"})
	return Task{
		HTML: page(`Enter "<span class="bold">`+q(v)+`</span>" into the text field and press Submit.`,
			`<form method="post" action="/submit"><input type="text" id="tt" name="text"><button type="submit">Submit</button></form>`, ""),
		Steps: []string{fmt.Sprintf(verb, v, kind), "click Submit"},
		Raw:   `Enter "` + v + `" into the text field and press Submit.`,
		Want:  map[string]string{"text": v},
	}
}

func enterDate(r *rand.Rand) Task {
	y, m, d := 2000+r.IntN(20), 1+r.IntN(12), 1+r.IntN(28)
	us := fmt.Sprintf("%02d/%02d/%d", m, d, y)
	return Task{
		HTML: page(`Enter `+us+` as the date and hit submit.`,
			`<form method="post" action="/submit"><input type="date" id="tt" name="date"><button type="submit">Submit</button></form>`, ""),
		Steps: []string{pick(r, []string{"fill the date with " + us, "enter " + us + " in the date field", "set the date to " + us}), "click Submit"},
		Raw:   "Enter " + us + " as the date and hit submit.",
		Want:  map[string]string{"date": fmt.Sprintf("%d-%02d-%02d", y, m, d)},
	}
}

func enterPassword(r *rand.Rand) Task {
	pw := strings.ToLower(pick(r, words)) + fmt.Sprint(r.IntN(90)+10)
	return Task{
		HTML: page(`Enter the password "`+q(pw)+`" into both text fields and press submit.`,
			`<form method="post" action="/submit"><p>Password</p><input type="password" id="password" name="p1">`+
				`<p>Verify password</p><input type="password" id="verify" name="p2"><br><button type="submit">Submit</button></form>`, ""),
		Steps: []string{"type " + pw + " into the first text field", "type " + pw + " into the second text field", "press submit"},
		Raw:   `Enter the password "` + pw + `" into both text fields and press submit.`,
		Want:  map[string]string{"p1": pw, "p2": pw},
	}
}

func loginUser(r *rand.Rand) Task {
	u, pw := strings.ToLower(pick(r, names)), pick(r, words)+fmt.Sprint(r.IntN(9))
	return Task{
		HTML: page(`Enter the username "`+q(u)+`" and the password "`+q(pw)+`" into the text fields and press login.`,
			`<form method="post" action="/submit"><label>Username <input type="text" id="username" name="username"></label><br>`+
				`<label>Password <input type="password" id="password" name="password"></label><br><button type="submit" id="subbtn">Login</button></form>`, ""),
		Steps: []string{"fill Username with " + u, "fill Password with " + pw, "click Login"},
		Raw:   `Enter the username "` + u + `" and the password "` + pw + `" into the text fields and press login.`,
		Want:  map[string]string{"username": u, "password": pw},
	}
}

func chooseList(r *rand.Rand) Task {
	opts := some(r, names, 5)
	v := pick(r, opts)
	var b strings.Builder
	b.WriteString(`<form method="post" action="/submit"><select id="options" name="choice">`)
	for _, o := range opts {
		b.WriteString(`<option>` + q(o) + `</option>`)
	}
	b.WriteString(`</select> <button type="submit">Submit</button></form>`)
	return Task{
		HTML:  page(`Select `+q(v)+` from the list and click Submit.`, b.String(), ""),
		Steps: []string{pick(r, []string{"select %s from the list", "choose %s from the dropdown", "select %s in the list"}), "click Submit"},
		Raw:   "Select " + v + " from the list and click Submit.",
		Want:  map[string]string{"choice": v},
	}.with(v)
}

// with puts v in the task's first step's %s.
func (t Task) with(v string) Task {
	t.Steps[0] = fmt.Sprintf(t.Steps[0], v)
	return t
}

func chooseListbox(r *rand.Rand) Task {
	opts := some(r, names, 5)
	v := pick(r, opts)
	var b strings.Builder
	b.WriteString(`<ul role="listbox" id="lb">`)
	for _, o := range opts {
		b.WriteString(`<li role="option" aria-selected="false" tabindex="-1">` + q(o) + `</li>`)
	}
	b.WriteString(`</ul><button id="sub">Submit</button>`)
	script := `document.querySelectorAll('[role=option]').forEach(o=>o.onclick=()=>{document.querySelectorAll('[role=option]').forEach(x=>x.setAttribute('aria-selected','false'));o.setAttribute('aria-selected','true');});
document.getElementById('sub').onclick=()=>{const s=document.querySelector('[aria-selected=true]');send({choice:s?s.textContent:''});};`
	return Task{
		HTML:  page(`Select `+q(v)+` from the list and click Submit.`, b.String(), script),
		Steps: []string{pick(r, []string{"select %s from the list", "choose %s in the list", "pick %s from the list"}), "click Submit"},
		Raw:   "Select " + v + " from the list and click Submit.",
		Want:  map[string]string{"choice": v},
	}.with(v)
}

func searchEngine(r *rand.Rand) Task {
	term := pick(r, names)
	n := 3 + r.IntN(7) // 3rd … 9th
	results := make([]string, 10)
	for i := range results {
		results[i] = pick(r, names) // names repeat, as on the benchmark
	}
	var js strings.Builder
	js.WriteString(`const results=[`)
	for i, n := range results {
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, "%q", n)
	}
	js.WriteString(`];
document.getElementById('search').onclick=()=>{const t=document.getElementById('search-text').value;const ul=document.getElementById('page-content');ul.innerHTML='';
results.forEach((n,i)=>{const d=document.createElement('div');d.innerHTML='<a class="search-title" href="/r/'+(i+1)+'?q='+encodeURIComponent(t)+'"></a><div class="search-url">https://'+n.toLowerCase()+'.example.com</div><div class="search-desc">'+n+' tempus magna nulla.</div>';d.firstChild.textContent=n;ul.appendChild(d);});};`)
	return Task{
		HTML: page(fmt.Sprintf(`Use the textbox to enter "%s" and press "Search", then find and click the %s search result.`, q(term), nth(n)),
			`<input id="search-text" type="text"> <button id="search">Search</button><div id="page-content"></div>`, js.String()),
		Steps: []string{"type " + term + " into the textbox", "click Search", "click the " + nth(n) + " search result"},
		Raw:   fmt.Sprintf(`Use the textbox to enter "%s" and press "Search", then find and click the %s search result.`, term, nth(n)),
		Path:  fmt.Sprintf("/r/%d", n),
		Want:  map[string]string{"q": term},
	}
}

func nth(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

func clickNthLink(r *rand.Rand) Task {
	ws := some(r, words, 6)
	n := 1 + r.IntN(5)
	var b strings.Builder
	b.WriteString(`<p>`)
	for i, w := range ws {
		fmt.Fprintf(&b, `%s <a href="/l/%d">%s</a> %s. `, pick(r, words), i+1, w, pick(r, words))
	}
	b.WriteString(`</p>`)
	return Task{
		HTML:  page(`Click on the `+nth(n)+` link.`, b.String(), ""),
		Steps: []string{"click the " + nth(n) + " link"},
		Raw:   "Click on the " + nth(n) + " link.",
		Path:  fmt.Sprintf("/l/%d", n),
	}
}

func clickLink(r *rand.Rand) Task {
	ws := some(r, words, 6)
	i := r.IntN(len(ws))
	var b strings.Builder
	b.WriteString(`<p>`)
	for j, w := range ws {
		fmt.Fprintf(&b, `%s %s <a href="/l/%d">%s</a>. `, strings.ToUpper(pick(r, names)[:1]), pick(r, []string{"sed", "et", "ut"}), j+1, w)
	}
	b.WriteString(`</p>`)
	return Task{
		HTML:  page(`Click on the link "`+ws[i]+`".`, b.String(), ""),
		Steps: []string{"click " + ws[i]},
		Raw:   `Click on the link "` + ws[i] + `".`,
		Path:  fmt.Sprintf("/l/%d", i+1),
	}
}

func emailInbox(r *rand.Rand) Task {
	from := some(r, names, 4)
	who := pick(r, from)
	var b strings.Builder
	// Half the inboxes are rows that open on a click anywhere; the other
	// half a table whose rows open by their subject's link, the sender's
	// name being plain text in the row.
	table := r.IntN(2) == 0
	if table {
		b.WriteString(`<table id="inbox"><tr><th></th><th>From</th><th>Subject</th></tr>`)
	} else {
		b.WriteString(`<div id="inbox">`)
	}
	for i, f := range from {
		subject := capital(pick(r, words)) + " " + pick(r, words)
		if table {
			fmt.Fprintf(&b, `<tr class="email-row"><td><input type="checkbox" aria-label="Select"></td><td class="email-sender">%s</td><td><a href="#" class="open">%s</a></td></tr>`, q(f), subject)
			continue
		}
		fmt.Fprintf(&b, `<div class="email" data-i="%d"><div class="email-sender">%s</div><div class="email-subject">%s</div></div>`, i, q(f), subject)
	}
	if table {
		b.WriteString(`</table>`)
	} else {
		b.WriteString(`</div>`)
	}
	b.WriteString(`<div id="open" hidden><div id="open-from"></div><p>Hello, tempus magna.</p>` +
		`<button id="reply">Reply</button> <button id="forward">Forward</button> <button id="trash" aria-label="Trash">🗑</button></div>`)
	script := `let cur='';function show(e){cur=e.querySelector('.email-sender').textContent;
document.getElementById('inbox').hidden=true;document.getElementById('open').hidden=false;document.getElementById('open-from').textContent='From: '+cur;}
document.querySelectorAll('.email').forEach(e=>e.onclick=()=>show(e));
document.querySelectorAll('.open').forEach(a=>a.onclick=ev=>{ev.preventDefault();show(a.closest('tr'));});
document.getElementById('trash').onclick=()=>send({action:'delete',from:cur});`
	return Task{
		HTML:  page(`Find the email by `+q(who)+` and click the trash icon to delete it.`, b.String(), script),
		Steps: []string{pick(r, []string{"click " + who, "open the email from " + who, "click the email from " + who}), "click the trash icon"},
		Raw:   "Find the email by " + who + " and click the trash icon to delete it.",
		Want:  map[string]string{"action": "delete", "from": who},
	}
}

func useAutocomplete(r *rand.Rand) Task {
	v := pick(r, places)
	prefix := v[:3]
	var js strings.Builder
	js.WriteString(`const items=[`)
	for i, p := range places {
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, "%q", p)
	}
	// A menu below the field, over the Submit button, as jQuery UI's
	// autocomplete: it opens as one types, closes on Escape, on a pick,
	// and when the field loses focus.
	js.WriteString(`];const f=document.getElementById('tags'),m=document.getElementById('menu');
function close(){m.hidden=true;}
f.oninput=()=>{const t=f.value.toLowerCase();m.innerHTML='';const hits=items.filter(x=>x.toLowerCase().startsWith(t));
if(!t||!hits.length){close();return;}hits.forEach(x=>{const li=document.createElement('li');li.textContent=x;li.onmousedown=ev=>ev.preventDefault();li.onclick=()=>{f.value=x;close();};m.appendChild(li);});
const b=f.getBoundingClientRect();m.style.left=f.form.getBoundingClientRect().left+'px';m.style.top=(b.bottom+window.scrollY)+'px';m.hidden=false;};
f.onkeydown=ev=>{if(ev.key==='Escape')close();};f.onblur=()=>close();`)
	steps := []string{"type " + v + " into the text field", "click Submit"}
	if r.IntN(2) == 0 {
		steps = []string{"type " + prefix + " into the text field", "click " + v, "click Submit"}
	}
	return Task{
		HTML: page(`Enter "`+q(v)+`" into the text field and press Submit.`,
			`<form method="post" action="/submit"><label for="tags">Tags: </label><input id="tags" name="tags" autocomplete="off"><br>`+
				`<button type="submit">Submit</button></form><ul id="menu" class="menu" hidden></ul>`, js.String()),
		Steps: steps,
		Raw:   `Enter "` + v + `" into the text field and press Submit.`,
		Want:  map[string]string{"tags": v},
	}
}

func clickButton(r *rand.Rand) Task {
	labels := some(r, []string{"yes", "no", "ok", "cancel", "submit", "next", "previous", "more"}, 4)
	v := pick(r, labels)
	var b strings.Builder
	b.WriteString(`<form method="post" action="/submit">`)
	for _, l := range labels {
		fmt.Fprintf(&b, `<button name="b" value="%s">%s</button> `, l, l)
	}
	b.WriteString(`</form>`)
	return Task{
		HTML:  page(`Click on the "`+v+`" button.`, b.String(), ""),
		Steps: []string{"click the " + v + " button"},
		Raw:   `Click on the "` + v + `" button.`,
		Want:  map[string]string{"b": v},
	}
}

func clickCheckboxes(r *rand.Rand) Task {
	opts := some(r, words, 5)
	k := 1 + r.IntN(2)
	want := opts[:k]
	var b strings.Builder
	b.WriteString(`<form method="post" action="/submit">`)
	for _, o := range some(r, opts, len(opts)) {
		fmt.Fprintf(&b, `<label><input type="checkbox" name="c" value="%s">%s</label><br>`, o, o)
	}
	b.WriteString(`<button type="submit">Submit</button></form>`)
	var steps []string
	for _, w := range want {
		steps = append(steps, "check "+w)
	}
	steps = append(steps, "click Submit")
	return Task{
		HTML:  page(`Select `+strings.Join(want, ", ")+` and click Submit.`, b.String(), ""),
		Steps: steps,
		Raw:   "Select " + strings.Join(want, ", ") + " and click Submit.",
		Want:  map[string]string{"c": strings.Join(want, ",")},
	}
}

func clickDialog(r *rand.Rand) Task {
	title := capital(pick(r, words))
	return Task{
		HTML: page(`Close the dialog box by clicking the "x".`,
			`<dialog open id="d"><button id="x" aria-label="x" style="float:right">×</button><h3>`+title+`</h3><p>`+pick(r, words)+` tempus.</p><button id="ok">OK</button></dialog>`,
			`document.getElementById('x').onclick=()=>{document.getElementById('d').close();send({closed:'x'});};document.getElementById('ok').onclick=()=>send({closed:'ok'});`),
		Steps: []string{pick(r, []string{"click x", "click the x", "click close"})},
		Raw:   `Close the dialog box by clicking the "x".`,
		Want:  map[string]string{"closed": "x"},
	}
}

func clickTab(r *rand.Rand) Task {
	n := 1 + r.IntN(3)
	var b strings.Builder
	b.WriteString(`<div role="tablist">`)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, `<button role="tab" id="t%d" aria-selected="%v">Tab #%d</button>`, i, i == 1, i)
	}
	b.WriteString(`</div><div role="tabpanel">` + pick(r, words) + ` magna.</div>`)
	return Task{
		HTML:  page(fmt.Sprintf(`Click on Tab #%d.`, n), b.String(), `document.querySelectorAll('[role=tab]').forEach(t=>t.onclick=()=>send({tab:t.id}));`),
		Steps: []string{fmt.Sprintf("click Tab #%d", n)},
		Raw:   fmt.Sprintf("Click on Tab #%d.", n),
		Want:  map[string]string{"tab": fmt.Sprintf("t%d", n)},
	}
}

// capital puts a word's first letter (ASCII, as every word here) in
// capitals.
func capital(w string) string { return strings.ToUpper(w[:1]) + w[1:] }
