// Package echoes is the corpus a typed secret's masking is measured on:
// form pages that, once the secret is typed into their field, spell it
// back the ways pages do, each with one of JavaScript's encoders
// (encodeURIComponent, encodeURI, URLSearchParams, escape, JSON.stringify,
// base64 of its UTF-8, hex) into one of the places waymark reads
// (a request's query or path, the console, the title, the URL, the page's
// text, local storage's values and keys). Pages and secrets are generated
// from a seed, so a run is repeatable and another seed gives others. The
// eval (eval_test.go, build tag evals) types each page's secret with
// form fill --secret and counts the echoes that came back readable in
// any output: make evals.
//
// The data half's fixtures typed secrets of letters, digits and spaces,
// which Go's url package and the page's encoders spell alike; a
// password with "!", "~", "(" or "é" is spelled differently by each.
package echoes

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Encoder is how a page spells the value: Expr is a JavaScript expression
// of v.
type Encoder struct {
	Name string
	Expr string
}

// Encoders are the page's encoders.
var Encoders = []Encoder{
	{"raw", "v"},
	{"encodeURIComponent", "encodeURIComponent(v)"},
	{"encodeURI", "encodeURI(v)"},
	{"URLSearchParams", "new URLSearchParams({v}).toString().slice(2)"},
	{"escape", "escape(v)"},
	{"JSON.stringify", "JSON.stringify(v).slice(1, -1)"},
	{"base64", "btoa(String.fromCharCode(...new TextEncoder().encode(v)))"},
	{"hex", "Array.from(new TextEncoder().encode(v), b => b.toString(16).padStart(2, '0')).join('')"},
}

// Channel is where a page puts a spelled value s: Script is a statement
// of s (a JavaScript string).
type Channel struct {
	Name   string
	Script string
}

// Channels are the places a page echoes to.
var Channels = []Channel{
	{"request-query", "fetch('/echo?s=' + s)"},
	{"request-path", "fetch('/echo/' + s + '/x')"},
	{"console", "console.log('saved ' + s)"},
	{"title", "document.title = 'Saved ' + s"},
	{"url", "history.replaceState({}, '', '/form?s=' + s)"},
	{"text", "document.getElementById('out').append(' ' + s)"},
	{"storage-value", "localStorage.setItem('draft' + Math.random(), s)"},
	{"storage-key", "localStorage.setItem(s, '1')"},
}

// Echo is one spelling into one place.
type Echo struct {
	Encoder Encoder
	Channel Channel
}

// Page is one generated page.
type Page struct {
	Name   string // "03-passphrase"
	Label  string // the secret field's label
	Key    string // the field's name
	Secret string
	Echoes []Echo
	HTML   string
}

var labels = [][2]string{{"Password", "password"}, {"Passphrase", "passphrase"}, {"Recovery phrase", "recovery"},
	{"Memorable word", "memorable"}, {"Security answer", "answer"}, {"Wi-Fi key", "wifi"}}

var words = []string{"correct", "horse", "battery", "staple", "orbit", "lantern", "quiet", "meadow", "copper", "violet", "harbor", "tundra"}

// symbols are the characters the encoders spell differently; accents
// are the ones beyond ASCII.
var (
	symbols = []string{"!", "~", "*", "'", "(", ")", "@", "#", "$", "&", "+", "=", "/", "?", ":", ";", ",", "%", " "}
	accents = []string{"é", "ü", "ñ", "€", "ø"}
)

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// secretOf makes a passphrase: two or three words joined by symbols, a
// number, sometimes a letter beyond ASCII.
func secretOf(r *rand.Rand) string {
	var b strings.Builder
	n := 2 + r.IntN(2)
	for i := range n {
		if i > 0 {
			b.WriteString(pick(r, symbols...))
		}
		w := pick(r, words...)
		if r.IntN(3) == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	if r.IntN(3) == 0 {
		b.WriteString(pick(r, accents...))
	}
	fmt.Fprintf(&b, "%s%d", pick(r, symbols[:6]...), r.IntN(100))
	return b.String()
}

// Generate makes n pages from seed: every encoder and every channel in
// the first pages, each page with two or three echoes.
func Generate(seed uint64, n int) []Page {
	r := rand.New(rand.NewPCG(seed, seed^0xec40))
	pages := make([]Page, 0, n)
	for i := range n {
		l := pick(r, labels...)
		p := Page{Label: l[0], Key: l[1], Secret: secretOf(r)}
		k := 2 + r.IntN(2)
		for j := range k {
			// The first pages go through every encoder and channel.
			e := Encoders[(i*k+j)%len(Encoders)]
			c := Channels[(i+j*3)%len(Channels)]
			if i*k >= len(Encoders)*len(Channels) {
				e, c = pick(r, Encoders...), pick(r, Channels...)
			}
			p.Echoes = append(p.Echoes, Echo{e, c})
		}
		p.Name = fmt.Sprintf("%02d-%s", i+1, p.Key)
		p.HTML = page(p)
		pages = append(pages, p)
	}
	return pages
}

// page is the form: a name, the secret field, and the script that spells
// the field's value once it changes, then logs "echoed" when it is done.
func page(p Page) string {
	var s strings.Builder
	for _, e := range p.Echoes {
		fmt.Fprintf(&s, "  { const s = %s; %s; }\n", e.Encoder.Expr, e.Channel.Script)
	}
	return fmt.Sprintf(`<!doctype html><title>Account</title>
<form onsubmit="return false">
<p><label>Name <input name="name"></label></p>
<p><label>%s <input name="%s" id="secret" type="password"></label></p>
</form>
<p id="out">Status:</p>
<script>
let done = false;
const echo = () => {
  const v = document.getElementById('secret').value;
  if (!v || done) return;
  done = true;
%s  console.log('echoed');
};
document.getElementById('secret').addEventListener('change', echo);
document.getElementById('secret').addEventListener('input', () => setTimeout(echo, 0));
</script>`, p.Label, p.Key, s.String())
}
