package demo

import (
	"io/fs"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"
)

// Options configures a [Site]. The zero value is valid.
type Options struct {
	// Logger receives one debug line per request and an error line per
	// recovered panic. Nil means discard.
	Logger *slog.Logger
	// Now is the clock for session and order times and for the delivery-date
	// check. Nil means time.Now.
	Now func() time.Time
}

// Site is the demo web app. It is an [http.Handler]; it is safe for
// concurrent use. The state of every session lives in memory for the life of
// the Site.
type Site struct {
	log *slog.Logger
	now func() time.Time
	mux *http.ServeMux
	// slowCap caps /slow and /api/slow: maxSlow, or less in tests.
	slowCap time.Duration

	// mu guards the fields below. Nothing else is locked while it is held.
	mu         sync.Mutex
	sessions   map[string]*SessionState // by session ID
	sessionIDs []string                 // session IDs, oldest first
	nextOrder  int                      // number of the next order, from 1001
	lastOrder  *Order                   // placed last, in any session
}

// New returns a Site. It starts nothing; serve it with an [http.Server] or
// [net/http/httptest.Server]. A nil opts means the defaults.
func New(opts *Options) *Site {
	if opts == nil {
		opts = &Options{}
	}
	s := &Site{
		log:       opts.Logger,
		now:       opts.Now,
		sessions:  make(map[string]*SessionState),
		nextOrder: 1001,
		slowCap:   maxSlow,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		// Round(0) drops the monotonic reading, so stored times compare
		// and print cleanly.
		s.now = func() time.Time { return time.Now().Round(0) }
	}
	s.mux = s.routes()
	return s
}

func (s *Site) routes() *http.ServeMux {
	m := http.NewServeMux()
	static, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // programmer error: the embedded folder is missing
	}
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))

	m.HandleFunc("GET /{$}", s.page("home", "Waymark demo shop"))
	m.HandleFunc("/", s.notFound)

	m.HandleFunc("GET /login", s.loginForm)
	m.HandleFunc("POST /login", s.login)
	m.HandleFunc("POST /logout", s.logout)
	m.HandleFunc("GET /account", s.account)

	m.HandleFunc("GET /products", s.products)
	m.HandleFunc("GET /products/{id}", s.product)
	m.HandleFunc("GET /cart", s.cart)
	m.HandleFunc("POST /cart/add", s.cartAddForm)
	m.HandleFunc("POST /cart/remove", s.cartRemove)
	m.HandleFunc("GET /api/cart", s.apiCart)
	m.HandleFunc("POST /api/cart", s.apiCartAdd)
	m.HandleFunc("GET /api/state", s.apiState)

	m.HandleFunc("GET /checkout", s.checkoutForm)
	m.HandleFunc("POST /checkout", s.checkout)
	m.HandleFunc("GET /orders/{number}", s.order)

	m.HandleFunc("GET /embed", s.embed)
	m.HandleFunc("GET /frame/payment", s.framePayment)
	m.HandleFunc("POST /frame/pay", s.framePay)

	m.HandleFunc("GET /widgets", s.page("widgets", "Widgets"))
	m.HandleFunc("GET /modal", s.page("modal", "Dialog"))
	m.HandleFunc("GET /modal/overlay", s.overlay)
	m.HandleFunc("GET /slow", s.slow)
	m.HandleFunc("GET /api/slow", s.apiSlow)
	m.HandleFunc("GET /slow-page", s.page("slowpage", "Slow loading"))
	m.HandleFunc("GET /links", s.page("links", "Links"))
	m.HandleFunc("GET /links/target", s.page("linktarget", "Link target"))
	m.HandleFunc("GET /alert", s.page("alert", "Alerts"))
	m.HandleFunc("GET /scroll", s.page("scroll", "Long page"))
	m.HandleFunc("GET /drag", s.page("drag", "Drag and drop"))
	m.HandleFunc("GET /upload", s.page("upload", "Upload files"))
	m.HandleFunc("POST /upload", s.upload)
	m.HandleFunc("GET /hover", s.page("hover", "Hover menu"))
	m.HandleFunc("GET /keys", s.page("keys", "Keyboard"))
	m.HandleFunc("GET /storage", s.page("storage", "Storage"))
	m.HandleFunc("GET /status/{code}", s.status)
	m.HandleFunc("GET /big", s.big)
	return m
}

// ServeHTTP serves the demo site. A panic in a handler is logged and answered
// with 500 for that request only.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now() // the real clock: Options.Now is for the site's data
	rw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("demo: handler panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			if !rw.wrote {
				http.Error(rw, "internal error", http.StatusInternalServerError)
			}
		}
		s.log.Debug("demo: request", "method", r.Method, "path", r.URL.Path, "host", r.Host,
			"status", rw.status, "dur_ms", time.Since(start).Milliseconds())
	}()
	s.mux.ServeHTTP(rw, r)
}

// statusWriter records the status code for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
