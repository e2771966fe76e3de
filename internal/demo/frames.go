package demo

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// otherHost returns the host of the request with the loopback name swapped:
// "127.0.0.1:PORT" becomes "localhost:PORT" and anything else becomes
// "127.0.0.1:PORT". Served by one server, the two names are different sites,
// so Chromium puts a frame from the other one in its own process (OOPIF).
func otherHost(host string) string {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, ""
	}
	other := "127.0.0.1"
	if name == "127.0.0.1" {
		other = "localhost"
	}
	if port == "" {
		return other
	}
	return net.JoinHostPort(other, port)
}

type embedData struct {
	FrameURL string
}

func (s *Site) embed(w http.ResponseWriter, r *http.Request) {
	sid := s.sessionID(w, r)
	// The frame gets the session ID in its URL: a cross-site frame does not
	// receive this site's SameSite=Lax cookie, and the payment must be
	// recorded in the session of the page that embeds it.
	u := url.URL{Scheme: "http", Host: otherHost(r.Host), Path: "/frame/payment", RawQuery: url.Values{"sid": {sid}}.Encode()}
	s.render(w, r, http.StatusOK, "embed", "Payment", embedData{FrameURL: u.String()})
}

type frameData struct {
	SID string
}

// frameSession returns the session named by sid when the site knows it,
// else the caller's own cookie session.
func (s *Site) frameSession(w http.ResponseWriter, r *http.Request, sid string) string {
	if sid != "" && s.known(sid) {
		return sid
	}
	return s.sessionID(w, r)
}

func (s *Site) framePayment(w http.ResponseWriter, r *http.Request) {
	sid := s.frameSession(w, r, r.URL.Query().Get("sid"))
	s.execute(w, http.StatusOK, "frame", "frame", frameData{SID: sid})
}

// payRequest is the body of POST /frame/pay, sent by the frame's Pay button.
type payRequest struct {
	SID  string `json:"sid"`
	Card string `json:"card"`
}

func (s *Site) framePay(w http.ResponseWriter, r *http.Request) {
	var req payRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, jsonError{`body must be JSON like {"sid": "…", "card": "4242 4242 4242 4242"}`})
		return
	}
	card := strings.TrimSpace(req.Card)
	if card == "" {
		writeJSON(w, http.StatusUnprocessableEntity, jsonError{"Enter a card number."})
		return
	}
	sid := s.frameSession(w, r, req.SID)
	s.update(sid, func(st *SessionState) { st.Paid, st.PaidCard = true, card })
	s.log.Info("demo: payment recorded", "session", sid)
	writeJSON(w, http.StatusOK, struct {
		Paid bool `json:"paid"`
	}{true})
}
