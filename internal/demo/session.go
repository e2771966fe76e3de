package demo

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"time"
)

// CookieName is the cookie that holds a browser's demo session ID.
const CookieName = "demo_sid"

// SessionState is a copy of what the site knows about one browser session.
// Changing it changes nothing on the site.
type SessionState struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`

	SignedIn     bool       `json:"signed_in"`
	Email        string     `json:"email,omitempty"` // set when signed in
	FailedLogins int        `json:"failed_logins"`   // wrong credentials posted to /login
	Cart         []CartItem `json:"cart"`
	Orders       []Order    `json:"orders"`

	// Paid is set by the Pay button of /frame/payment; PaidCard holds the
	// card number as it was typed.
	Paid     bool   `json:"paid"`
	PaidCard string `json:"paid_card,omitempty"`

	// Uploads lists the files received by POST /upload, oldest first.
	Uploads []Attachment `json:"uploads"`
}

// CartCount reports the number of units in the cart, the number shown by the
// header badge "Cart (N)".
func (st SessionState) CartCount() int {
	n := 0
	for _, it := range st.Cart {
		n += it.Qty
	}
	return n
}

// CartItem is one product line of a cart or an order.
type CartItem struct {
	ProductID  int    `json:"product_id"`
	Name       string `json:"name"`
	Qty        int    `json:"qty"`
	PriceCents int    `json:"price_cents"` // unit price
}

// Order is a checkout that passed validation.
type Order struct {
	Number string    `json:"number"` // "WM-1001", "WM-1002", … across the site
	Placed time.Time `json:"placed"`

	Name  string `json:"name"`
	Email string `json:"email"`
	// Password is the account password as typed, kept so that tests can check
	// what reached the server. This is a demo: never do this in a real shop.
	// It is left out of /api/state.
	Password     string     `json:"-"`
	Country      string     `json:"country"`  // ISO code, e.g. "GB"
	Shipping     string     `json:"shipping"` // "standard" or "express"
	Terms        bool       `json:"terms"`
	Newsletter   bool       `json:"newsletter"`
	DeliveryDate string     `json:"delivery_date,omitempty"` // YYYY-MM-DD, or empty
	Notes        string     `json:"notes,omitempty"`
	Invoice      Attachment `json:"invoice"` // zero if no file was attached
	Items        []CartItem `json:"items"`
	TotalCents   int        `json:"total_cents"`
}

// Attachment describes an uploaded file; the content is read and dropped.
type Attachment struct {
	Name        string `json:"name,omitempty"`
	Size        int64  `json:"size,omitempty"`
	ContentType string `json:"content_type,omitempty"`
}

// clone returns a deep copy of st.
func (st SessionState) clone() SessionState {
	st.Cart = slices.Clone(st.Cart)
	st.Uploads = slices.Clone(st.Uploads)
	st.Orders = slices.Clone(st.Orders)
	for i := range st.Orders {
		st.Orders[i].Items = slices.Clone(st.Orders[i].Items)
	}
	if st.Cart == nil {
		st.Cart = []CartItem{}
	}
	if st.Orders == nil {
		st.Orders = []Order{}
	}
	if st.Uploads == nil {
		st.Uploads = []Attachment{}
	}
	return st
}

// Session returns a copy of the session sid, or the zero SessionState (ID "")
// if there is no such session.
func (s *Site) Session(sid string) SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.sessions[sid]
	if !ok {
		return SessionState{}
	}
	return st.clone()
}

// Sessions returns the IDs of all sessions, oldest first.
func (s *Site) Sessions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sessionIDs)
}

// LastOrder returns the order placed last in any session, for tests that
// drive a single browser.
func (s *Site) LastOrder() (Order, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastOrder == nil {
		return Order{}, false
	}
	o := *s.lastOrder
	o.Items = slices.Clone(o.Items)
	return o, true
}

// sessionID returns the request's session ID, creating the session and
// setting the cookie if the request has none or one this site does not know
// (say, after a restart).
func (s *Site) sessionID(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(CookieName); err == nil && s.known(c.Value) {
		return c.Value
	}
	sid := s.newSession()
	http.SetCookie(w, &http.Cookie{
		Name:     CookieName,
		Value:    sid,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
	})
	// Later reads of the cookie in this request see the new session.
	r.AddCookie(&http.Cookie{Name: CookieName, Value: sid})
	return sid
}

func (s *Site) known(sid string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sessions[sid]
	return ok
}

func (s *Site) newSession() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	sid := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[sid] = &SessionState{ID: sid, Created: s.now()}
	s.sessionIDs = append(s.sessionIDs, sid)
	return sid
}

// update runs f on the live session sid with s.mu held (f may touch the
// other fields s.mu guards, and must not call back into s) and returns a copy
// of the result. The session must exist (sessionID made it); sessions are never
// deleted.
func (s *Site) update(sid string, f func(st *SessionState)) SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.sessions[sid]
	if st == nil { // not reached through sessionID; be safe anyway
		st = &SessionState{ID: sid, Created: s.now()}
		s.sessions[sid] = st
		s.sessionIDs = append(s.sessionIDs, sid)
	}
	if f != nil {
		f(st)
	}
	return st.clone()
}

// state returns the request's session, creating it if needed.
func (s *Site) state(w http.ResponseWriter, r *http.Request) SessionState {
	return s.update(s.sessionID(w, r), nil)
}

// Orders returns every order placed, in any session, oldest first: a batch
// test counts them to prove no submit was pressed twice.
func (s *Site) Orders() []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Order
	for _, id := range s.sessionIDs {
		for _, o := range s.sessions[id].Orders {
			o.Items = slices.Clone(o.Items)
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b Order) int { return strings.Compare(a.Number, b.Number) })
	return out
}
