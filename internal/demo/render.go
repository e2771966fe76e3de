package demo

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
)

// files holds the page templates and the static assets (CSS and the small
// scripts each page needs).
//
//go:embed templates static
var files embed.FS

// templates maps a page name ("login") to its template set. Pages that
// define "content" are drawn inside the layout; standalone pages (the framed
// payment page, the big table) are executed by their own name.
// They are parsed on first use, not at init: the demo's package is linked
// into the CLI binary, and every command would pay for the parse.
var templates = sync.OnceValue(parseTemplates)

var funcs = template.FuncMap{
	"money": money,
	"total": total,
}

func parseTemplates() map[string]*template.Template {
	layout := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html"))
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		panic(err)
	}
	m := make(map[string]*template.Template)
	for _, file := range names {
		name := strings.TrimSuffix(path.Base(file), ".html")
		if name == "layout" {
			continue
		}
		t := template.Must(template.Must(layout.Clone()).ParseFS(files, file))
		m[name] = t
	}
	return m
}

// view is what every page template gets as its dot.
type view struct {
	Title string
	State SessionState // the caller's session, for the header
	Data  any          // page-specific
}

// render draws page name inside the layout with the given status code.
func (s *Site) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) {
	st := s.state(w, r)
	s.execute(w, status, name, "layout", view{Title: title, State: st, Data: data})
}

// execute runs template tmpl of page name into a buffer first, so that a
// template error becomes a clean 500 rather than half a page.
func (s *Site) execute(w http.ResponseWriter, status int, name, tmpl string, dot any) {
	t, ok := templates()[name]
	if !ok {
		panic(fmt.Sprintf("demo: no template %q", name)) // programmer error
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, tmpl, dot); err != nil {
		s.log.Error("demo: render", "page", name, "err", err)
		http.Error(w, "template error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// page returns a handler for a page that needs no data.
func (s *Site) page(name, title string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.render(w, r, http.StatusOK, name, title, nil)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// jsonError is the body of every JSON error reply.
type jsonError struct {
	Error string `json:"error"`
}

func money(cents int) string {
	return fmt.Sprintf("$%d.%02d", cents/100, cents%100)
}
