package demo

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/waymark-dev/waymark/internal/wait"
)

type overlayData struct {
	DelayMS int
}

// overlay is the page whose button a fixed overlay covers DelayMS after load
// (?delay=N, default 500).
func (s *Site) overlay(w http.ResponseWriter, r *http.Request) {
	d := overlayData{DelayMS: 500}
	if q := r.URL.Query().Get("delay"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || n > 60000 {
			s.renderStatus(w, r, http.StatusBadRequest, "delay must be a number of milliseconds from 0 to 60000.")
			return
		}
		d.DelayMS = n
	}
	s.render(w, r, http.StatusOK, "overlay", "Special offer", d)
}

type uploadData struct {
	Files []Attachment
}

func (s *Site) upload(w http.ResponseWriter, r *http.Request) {
	sid := s.sessionID(w, r)
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		s.renderStatus(w, r, http.StatusBadRequest, "Send the files as multipart/form-data: "+err.Error())
		return
	}
	defer func() { _ = r.MultipartForm.RemoveAll() }()
	files, err := attachments(r, "files")
	if err != nil {
		s.renderStatus(w, r, http.StatusBadRequest, "The files could not be read; choose them again.")
		return
	}
	s.update(sid, func(st *SessionState) { st.Uploads = append(st.Uploads, files...) })
	s.render(w, r, http.StatusOK, "upload", "Upload files", uploadData{Files: files})
}

// maxSlow caps the delay of /slow and /api/slow.
const maxSlow = 10 * time.Second

// slowDelay reads ?ms=N (default 1000), capped at limit.
func slowDelay(r *http.Request, limit time.Duration) (time.Duration, error) {
	q := r.URL.Query().Get("ms")
	if q == "" {
		return time.Second, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 0 {
		return 0, errors.New("ms must be a whole number of milliseconds, 0 or more")
	}
	return min(time.Duration(n)*time.Millisecond, limit), nil
}

type slowData struct {
	MS int64
}

func (s *Site) slow(w http.ResponseWriter, r *http.Request) {
	d, err := slowDelay(r, s.slowCap)
	if err != nil {
		s.renderStatus(w, r, http.StatusBadRequest, err.Error())
		return
	}
	if wait.Sleep(r.Context(), d) != nil { // the client went away
		return
	}
	s.render(w, r, http.StatusOK, "slow", "Slow page", slowData{MS: d.Milliseconds()})
}

func (s *Site) apiSlow(w http.ResponseWriter, r *http.Request) {
	d, err := slowDelay(r, s.slowCap)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, jsonError{err.Error()})
		return
	}
	if wait.Sleep(r.Context(), d) != nil { // the client went away
		return
	}
	writeJSON(w, http.StatusOK, struct {
		MS      int64  `json:"ms"`
		Message string `json:"message"`
	}{d.Milliseconds(), "Loaded"})
}

type statusData struct {
	Code    int
	Text    string
	Message string
}

// renderStatus draws the small status page with code and a message.
func (s *Site) renderStatus(w http.ResponseWriter, r *http.Request, code int, msg string) {
	d := statusData{Code: code, Text: http.StatusText(code), Message: msg}
	s.render(w, r, code, "status", fmt.Sprintf("%d %s", code, d.Text), d)
}

func (s *Site) notFound(w http.ResponseWriter, r *http.Request) {
	s.renderStatus(w, r, http.StatusNotFound, "There is no page at "+r.URL.Path+". Start again from the home page.")
}

// status answers /status/{code} with that code (200 to 599) and a small page.
// 204 and 304 carry no body, as HTTP requires.
func (s *Site) status(w http.ResponseWriter, r *http.Request) {
	code, err := strconv.Atoi(r.PathValue("code"))
	if err != nil || code < 200 || code > 599 {
		s.renderStatus(w, r, http.StatusBadRequest, "The status code must be a number from 200 to 599.")
		return
	}
	if code == http.StatusNoContent || code == http.StatusNotModified {
		s.sessionID(w, r)
		w.WriteHeader(code)
		return
	}
	text := http.StatusText(code)
	if text == "" {
		text = "Status " + strconv.Itoa(code)
	}
	d := statusData{Code: code, Text: text, Message: "This page was served with status " + strconv.Itoa(code) + " on purpose."}
	s.render(w, r, code, "status", fmt.Sprintf("%d %s", code, text), d)
}

// bigRows caps /big?rows=N.
const bigRows = 50000

type bigData struct {
	Rows []bigRow
	Nav  []int
}

type bigRow struct {
	N          int
	Name       string
	PriceCents int
}

// big is the benchmark page: a table of ?rows=N rows (default 1000) of three
// cells, a nav of 20 links and a footer. Its content depends only on N.
func (s *Site) big(w http.ResponseWriter, r *http.Request) {
	n := 1000
	if q := r.URL.Query().Get("rows"); q != "" {
		v, err := strconv.Atoi(q)
		if err != nil || v < 0 {
			s.renderStatus(w, r, http.StatusBadRequest, "rows must be a whole number, 0 or more.")
			return
		}
		n = min(v, bigRows)
	}
	d := bigData{Rows: make([]bigRow, n), Nav: make([]int, 20)}
	for i := range d.Rows {
		p := catalog[i%len(catalog)]
		d.Rows[i] = bigRow{N: i + 1, Name: fmt.Sprintf("%s #%d", p.Name, i+1), PriceCents: p.PriceCents + i%100}
	}
	for i := range d.Nav {
		d.Nav[i] = i + 1
	}
	s.execute(w, http.StatusOK, "big", "big", d)
}
