package netlog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxRows is how many requests Markdown lists; the failed ones come
// first, so a long log still shows what went wrong.
const maxRows = 100

// Markdown renders the summary for a person: the failures, a table of
// requests, proxy and DNS events, errors by host.
func (s *Summary) Markdown() string {
	var b strings.Builder
	b.WriteString("# NetLog summary\n\n")
	fmt.Fprintf(&b, "%s; %s.", plural(len(s.Requests), "request"), plural(s.Events, "event"))
	if s.Chromium != "" {
		fmt.Fprintf(&b, " Chromium %s, capture mode %s.", s.Chromium, s.CaptureMode)
	}
	b.WriteString("\n")
	if s.Truncated {
		b.WriteString("\nThe log is cut short (the browser crashed or was still writing it): this is what it held up to the cut.\n")
	}
	if line := s.Brief(); line != "" {
		fmt.Fprintf(&b, "\n%s\n", line)
	}
	if len(s.Requests) > 0 {
		b.WriteString("\n| # | method | URL | status | protocol | TLS | DNS | connect | TLS ms | first byte | total | error |\n")
		b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
		rows := s.rows()
		for _, i := range rows {
			r := s.Requests[i]
			status := ""
			if r.Status > 0 {
				status = strconv.Itoa(r.Status)
			}
			errText := r.Error
			if r.Stage != "" {
				errText += " (" + r.Stage + ")"
			}
			method := r.Method
			if r.Background {
				method += " (browser)"
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", i+1, method, cell(r.URL), status, r.Protocol,
				cell(r.TLS.String()), msCell(r.Timing.DNSMS), msCell(r.Timing.ConnectMS), msCell(r.Timing.TLSMS),
				msCell(r.Timing.FirstByteMS), msCell(r.Timing.TotalMS), errText)
		}
		if n := len(s.Requests) - len(rows); n > 0 {
			fmt.Fprintf(&b, "\n(%s more, left out; the JSON has them all)\n", plural(n, "request"))
		}
	}
	notes := func(title string, ns []Note) {
		if len(ns) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		for _, n := range ns {
			fmt.Fprintf(&b, "- %s", n.What)
			if n.Host != "" {
				fmt.Fprintf(&b, " %s", n.Host)
			}
			if n.Error != "" {
				fmt.Fprintf(&b, ": %s", n.Error)
			}
			if n.Count > 1 {
				fmt.Fprintf(&b, " (×%d)", n.Count)
			}
			b.WriteString("\n")
		}
	}
	notes("Proxy", s.Proxy)
	notes("DNS", s.DNS)
	if len(s.ErrorsByHost) > 0 {
		b.WriteString("\n## Errors by host\n\n")
		for _, he := range s.ErrorsByHost {
			var parts []string
			for _, e := range he.Errors {
				parts = append(parts, fmt.Sprintf("%s ×%d", e.Error, e.Count))
			}
			fmt.Fprintf(&b, "- %s: %d (%s)\n", he.Host, he.Count, strings.Join(parts, ", "))
		}
	}
	return b.String()
}

// rows picks the requests Markdown shows, in log order: every failed one
// first up to maxRows, then the others.
func (s *Summary) rows() []int {
	var failed, ok []int
	for i, r := range s.Requests {
		if r.Error != "" || r.Status >= 400 {
			failed = append(failed, i)
		} else {
			ok = append(ok, i)
		}
	}
	rows := append(failed, ok...)
	if len(rows) > maxRows {
		rows = rows[:maxRows]
	}
	slices.Sort(rows)
	return rows
}

// Brief is one line on what went wrong, for a step's result and a report:
// the first request that died of a net error or was answered with a
// challenge or a refusal, with what its connection was. Chromium's own
// background requests are left out. Empty when nothing failed.
func (s *Summary) Brief() string {
	var failed []Request
	for _, r := range s.Requests {
		if !r.Background && (r.Error != "" || r.Status >= 400 || r.Signals["cf-mitigated"] != "") {
			failed = append(failed, r)
		}
	}
	if len(failed) == 0 {
		return ""
	}
	r := failed[0]
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", r.Method, r.URL)
	switch {
	case r.Error != "" && r.Status == 0:
		fmt.Fprintf(&b, "%s %s", r.Error, stageWords(r.Stage))
	case r.Error != "":
		fmt.Fprintf(&b, "status %d, then %s in the body", r.Status, r.Error)
	default:
		fmt.Fprintf(&b, "status %d", r.Status)
	}
	var conn []string
	if r.TLS != nil && r.TLS.Version != "" {
		conn = append(conn, r.TLS.Version)
	}
	if r.Protocol != "" {
		conn = append(conn, r.Protocol)
	}
	if v := r.Signals["cf-mitigated"]; v != "" {
		conn = append(conn, "a `cf-mitigated: "+v+"` header")
	}
	if r.Proxy != "" {
		conn = append(conn, "through proxy "+r.Proxy)
	}
	if len(conn) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(conn, ", "))
	}
	if len(failed) > 1 {
		fmt.Fprintf(&b, "; %s failed in all", plural(len(failed), "request"))
	}
	return b.String()
}

func stageWords(stage string) string {
	switch stage {
	case "dns":
		return "looking up the name"
	case "connect":
		return "connecting"
	case "tls":
		return "in the TLS handshake"
	case "request":
		return "before any answer, after the request was sent"
	}
	return "before any answer"
}

// String is the TLS of a connection in a few words: "TLS 1.3, h2".
func (t *TLS) String() string {
	if t == nil {
		return ""
	}
	var parts []string
	for _, p := range []string{t.Version, t.Cipher, t.ALPN, t.Error} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

func msCell(v *int64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatInt(*v, 10)
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
