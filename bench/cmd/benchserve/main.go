// Command benchserve serves the benchmark pages on loopback.
//
//	/big               a generated page of a few thousand elements: a nav of
//	                   20 links, a 1000-row table of 3 cells per row (one cell
//	                   holds a link or a button) and a footer
//	/corpus/NAME.html  a saved real page, read from the -corpus directory
//	/corpus/           the list of those pages
//
// It prints its base URL (http://127.0.0.1:PORT) on stdout and serves until
// killed. Every response carries a Content-Security-Policy that lets a page
// load nothing but from its own origin, so the saved pages' external scripts,
// images and beacons are refused by the browser and never leave the machine.
//
// It imports the standard library only.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// csp allows inline code (the saved pages rely on it) but only same-origin
// loads of any kind.
const csp = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; " +
	"img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; " +
	"connect-src 'self'; frame-src 'self'; child-src 'self'; worker-src 'self' blob:; " +
	"object-src 'none'; form-action 'self'; base-uri 'self'"

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback only)")
	corpus := flag.String("corpus", "../shared/corpus/web", "directory of saved pages served under /corpus/")
	rows := flag.Int("rows", 1000, "rows of the /big table")
	flag.Parse()

	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		log.Fatalf("benchserve: bad -addr %q: %v", *addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		log.Fatalf("benchserve: -addr %q is not a loopback address", *addr)
	}

	big := bigPage(*rows)
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(big)
	})
	mux.HandleFunc("/corpus/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/corpus/")
		if name == "" {
			listCorpus(w, *corpus)
			return
		}
		if strings.Contains(name, "/") || strings.Contains(name, "..") || !strings.HasSuffix(name, ".html") {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(*corpus, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>benchserve</title><h1>benchserve</h1><ul><li><a href="/big">/big</a><li><a href="/corpus/">/corpus/</a></ul>`)
	})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("benchserve: %v", err)
	}
	fmt.Printf("http://%s\n", ln.Addr().String())
	os.Stdout.Sync()

	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
	log.Fatal(http.Serve(ln, handler))
}

func listCorpus(w http.ResponseWriter, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".html") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, "<!doctype html><title>corpus</title><ul>\n")
	for _, n := range names {
		fmt.Fprintf(w, "<li><a href=\"/corpus/%s\">%s</a>\n", n, n)
	}
	fmt.Fprint(w, "</ul>\n")
}

// bigPage builds the /big page: a nav of 20 links, a table of rows×3 cells
// whose middle cell holds a link (even rows) or a button (odd rows), a
// status line the buttons write to, and a footer.
func bigPage(rows int) []byte {
	var b bytes.Buffer
	b.WriteString(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Big table</title>
<style>body{font:14px sans-serif;margin:0 1em}nav a{margin-right:.6em}td{padding:1px 6px;border-bottom:1px solid #ddd}</style>
</head><body>
<header><h1>Big table</h1>
<nav aria-label="Main">
`)
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, `<a href="#section-%d">Section %d</a>`+"\n", i, i)
	}
	b.WriteString(`</nav></header>
<main>
<p id="status" role="status">Nothing clicked yet.</p>
<table id="items">
<thead><tr><th>#</th><th>Action</th><th>Description</th></tr></thead>
<tbody>
`)
	for i := 1; i <= rows; i++ {
		var action string
		if i%2 == 0 {
			action = fmt.Sprintf(`<a href="#row-%d">Open item %d</a>`, i, i)
		} else {
			action = fmt.Sprintf(`<button type="button" data-row="%d">Select item %d</button>`, i, i)
		}
		fmt.Fprintf(&b, `<tr id="row-%d"><td>%d</td><td>%s</td><td>Item %d is a generated row with some descriptive text.</td></tr>`+"\n", i, i, action, i)
	}
	b.WriteString(`</tbody></table>
</main>
<footer><p>Generated by benchserve.</p><a href="#top">Back to top</a> <a href="#contact">Contact</a></footer>
<script>
document.getElementById('items').addEventListener('click', function (e) {
  var t = e.target;
  if (t.tagName === 'BUTTON') {
    document.getElementById('status').textContent = 'Selected item ' + t.dataset.row + '.';
  }
});
</script>
</body></html>
`)
	return b.Bytes()
}
