package pilot_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// miniPages are small web tasks in the manner of MiniWoB++ (issue 31,
// item 7; evals/rules has the corpus): each posts its answer to /submit
// or leads to /r/N, which the server counts.
var miniPages = map[string]string{
	"/listbox": `<ul role="listbox"><li role="option" tabindex="-1">Ilse</li><li role="option" tabindex="-1">Ona</li><li role="option" tabindex="-1">Tamra</li></ul>
<button id="sub">Submit</button><script>let v='';document.querySelectorAll('[role=option]').forEach(o=>o.onclick=()=>{v=o.textContent;o.setAttribute('aria-selected','true');});
document.getElementById('sub').onclick=()=>fetch('/submit',{method:'POST',body:new URLSearchParams({choice:v})}).then(r=>r.text());</script>`,
	"/search": `<a href="/home">Home</a> <input id="q"> <button id="go">Search</button><div id="res"></div>
<script>document.getElementById('go').onclick=()=>{const t=document.getElementById('q').value;
document.getElementById('res').innerHTML=['Dixie','Ona','Dixie','Marcus'].map((n,i)=>'<div><a href="/r/'+(i+1)+'?q='+t+'">'+n+'</a></div>').join('');};</script>`,
	"/inbox": `<table id="inbox"><tr><th></th><th>From</th><th>Subject</th></tr>
<tr><td><input type="checkbox" aria-label="Select"></td><td>Kanesha</td><td><a href="#" class="o">Urna velit</a></td></tr>
<tr><td><input type="checkbox" aria-label="Select"></td><td>Gretchen</td><td><a href="#" class="o">Odio magna</a></td></tr></table>
<div id="open" hidden><button id="trash" aria-label="Trash">🗑</button></div>
<script>let cur='';document.querySelectorAll('.o').forEach(a=>a.onclick=e=>{e.preventDefault();cur=a.closest('tr').children[1].textContent;
document.getElementById('inbox').hidden=true;document.getElementById('open').hidden=false;});
document.getElementById('trash').onclick=()=>fetch('/submit',{method:'POST',body:new URLSearchParams({from:cur})}).then(r=>r.text());</script>`,
	// As jQuery UI's autocomplete: a menu under the field, over the
	// Submit button, that opens as one types and closes on Escape, on a
	// pick, and when the field loses focus.
	"/auto": `<form method="post" action="/submit"><label for="tags">Tags: </label><input id="tags" name="tags" autocomplete="off"><br>
<button>Submit</button></form><ul id="menu" hidden style="position:absolute;background:#fff;border:1px solid #888;list-style:none;margin:0;padding:0;width:240px"></ul>
<script>const f=document.getElementById('tags'),m=document.getElementById('menu');
f.oninput=()=>{const t=f.value.toLowerCase();m.innerHTML='';const hits=['Antarctica','Antigua','Angola'].filter(x=>x.toLowerCase().startsWith(t));
if(!t||!hits.length){m.hidden=true;return;}hits.forEach(x=>{const li=document.createElement('li');li.textContent=x;li.style.padding='4px';li.style.cursor='pointer';li.onmousedown=e=>e.preventDefault();li.onclick=()=>{f.value=x;m.hidden=true;};m.appendChild(li);});
const b=f.getBoundingClientRect();m.style.left=f.form.getBoundingClientRect().left+'px';m.style.top=(b.bottom+scrollY)+'px';m.hidden=false;};
f.onkeydown=e=>{if(e.key==='Escape')m.hidden=true;};f.onblur=()=>{m.hidden=true;};</script>`,
	"/text": `<p>Enter "Kasey" into the text field and press Submit.</p><form method="post" action="/submit"><input name="text"><button>Submit</button></form>`,
}

// miniSite serves miniPages and counts what reaches it.
type miniSite struct {
	mu  sync.Mutex
	got []string // "POST /submit choice=Ona", "GET /r/3 q=Kanesha"
	srv *httptest.Server
}

func newMiniSite(t *testing.T) *miniSite {
	m := &miniSite{}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		if r.URL.Path == "/submit" || strings.HasPrefix(r.URL.Path, "/r/") {
			m.got = append(m.got, r.Method+" "+r.URL.Path+" "+string(body)+r.URL.RawQuery)
		}
		m.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><meta charset="utf-8"><title>Task</title><body style="width:320px">`+miniPages[r.URL.Path])
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// await waits for want to reach the server, up to two seconds.
func (m *miniSite) await(t *testing.T, want string) {
	t.Helper()
	for range 100 {
		m.mu.Lock()
		got := strings.Join(m.got, "\n")
		m.mu.Unlock()
		if strings.Contains(got, want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t.Errorf("the server never got %q; it got %q", want, m.got)
}

// TestRulesModelOnSmallWebTasks: with no key, a list named as a list, the
// nth search result and an inbox row named by its sender's plain text are
// done from plain steps, and run does a raw task sentence of two steps;
// what counts is what reached the server.
func TestRulesModelOnSmallWebTasks(t *testing.T) {
	s, ctx := drivertest.Session(t, "miniwob", 60*time.Second)
	site := newMiniSite(t)
	p := pilot.New(s, rules.New(), nil)
	steps := func(page string, instructions ...string) {
		t.Helper()
		if _, err := s.Open(ctx, calls.OpenRequest{URL: site.srv.URL + page}); err != nil {
			t.Fatal(err)
		}
		for _, in := range instructions {
			if _, err := p.Act(ctx, in, &pilot.ActOptions{AllowSubmit: true, NoHand: true}); err != nil {
				t.Fatalf("%s: act %q: %v", page, in, err)
			}
		}
	}
	steps("/listbox", "select Ona from the list", "click Submit")
	site.await(t, "POST /submit choice=Ona")
	steps("/search", "type Kanesha into the text input", "click Search", "click the 3rd search result")
	site.await(t, "GET /r/3 q=Kanesha")
	steps("/inbox", "open the email from Gretchen", "click the trash icon")
	site.await(t, "POST /submit from=Gretchen")
	// The menu the typing opened covers Submit: it is closed, not
	// reported as covering it.
	steps("/auto", "type Antarctica into the text field", "click Submit")
	site.await(t, "POST /submit tags=Antarctica")
	steps("/auto", "type Ant into the text field", "click Antigua", "click Submit")
	site.await(t, "POST /submit tags=Antigua")

	if _, err := s.Open(ctx, calls.OpenRequest{URL: site.srv.URL + "/text"}); err != nil {
		t.Fatal(err)
	}
	task := `Enter "Kasey" into the text field and press Submit.`
	// act does one step: the sentence is refused with its steps.
	if _, err := p.Act(ctx, task, &pilot.ActOptions{AllowSubmit: true, NoHand: true}); !strings.Contains(errString(err), "holds 2 steps") {
		t.Errorf("act of a two-step sentence: %v", err)
	}
	res, err := p.Run(ctx, task, pilot.RunOptions{AllowSubmit: true, MaxSteps: 6, NoHand: true})
	if err != nil || !res.Done || res.Steps != 2 {
		t.Errorf("run: %+v, %v", res, err)
	}
	site.await(t, "POST /submit text=Kasey")
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
