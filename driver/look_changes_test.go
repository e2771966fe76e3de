package driver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// changesPage is a long page (a list of 100 links) with a form: two fields
// kept as typed, a city field the page writes in capitals, and a button
// that takes the promotion link away and counts in its name.
var changesPage = func() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Long</title><main><a href="#p" id="promo">Promotion</a><form>
<label>Full name <input id="name" required></label>
<label>Email <input id="email" type="email" required></label>
<label>City <input id="city" oninput="this.value = this.value.toUpperCase()"></label>
<button type="button" id="go" onclick="document.getElementById('promo').remove(); this.textContent = 'Done 1'">Go</button>
</form><ul>`)
	for i := range 100 {
		fmt.Fprintf(&b, `<li><a href="#i%d">Item number %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></main>`)
	return b.String()
}()

// TestChangesLookSaysOnlyWhatChanged: after fills and a click on a long
// page, the --changes look is a small part of the whole look, and it still
// says everything the agent did not know: an element gone, a name changed,
// a value the page rewrote. A field that holds just what the agent filled
// has no line (its fill's reply said so), and when nothing else changed the
// header says so rather than "no changes".
func TestChangesLookSaysOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": changesPage})
	open(t, s, ctx, srv.URL)
	req := calls.SnapshotRequest{Interactive: true, Full: true, Changes: true}
	whole := snapshot(t, s, ctx, req)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#name", Value: "Ann Example"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#email", Value: "ann@example.com"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: "css=#city", Value: "abc"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#go"})
	got := snapshot(t, s, ctx, req)
	for _, want := range []string{
		"[changes since your last look]\n",
		`link "Promotion"`, // gone: a "- " line
		`~ button "Done 1" [ref=`,
		`value="ABC"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the changes look lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Ann Example") || strings.Contains(got, "ann@example.com") || strings.Contains(got, "[required]") {
		t.Errorf("the changes look repeats what the agent filled, or what did not change:\n%s", got)
	}
	if len(got)*10 > len(whole) {
		t.Errorf("the changes look is %d bytes, over 10 %% of the whole look's %d:\n%s", len(got), len(whole), got)
	}

	// Filled again, and nothing else changed.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#name", Value: "Bo"})
	if got := snapshot(t, s, ctx, req); got != "[no changes since your last look besides what you filled]\n" {
		t.Errorf("after a fill alone:\n%s", got)
	}
	// A fill the page rewrote is said: the agent did not know it.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#email", Value: "bo@example.com"})
	evalString(t, s, ctx, `document.getElementById('email').value = 'bo@example.org'; ''`)
	if got := snapshot(t, s, ctx, req); !strings.Contains(got, `value="bo@example.org"`) {
		t.Errorf("a value the page rewrote after the fill is not said:\n%s", got)
	}
}

// TestChangesLookLeavesOutOnlyTheReadersOwnFill: a field one reader filled
// is left out of that reader's next look only; another reader of the
// session (an MCP client beside a shell) is told of it.
func TestChangesLookLeavesOutOnlyTheReadersOwnFill(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Two</title><label>Name <input id="name"></label>`})
	open(t, s, ctx, srv.URL)
	look := func(reader string) string {
		return snapshot(t, s, ctx, calls.SnapshotRequest{Interactive: true, Changes: true, Reader: reader})
	}
	look("a")
	look("b")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#name", Value: "Ann", Reader: "b"})
	if got := look("a"); !strings.Contains(got, `value="Ann"`) {
		t.Errorf("reader a was not told of b's fill:\n%s", got)
	}
	if got := look("b"); got != "[no changes since your last look besides what you filled]\n" {
		t.Errorf("reader b's look after its fill:\n%s", got)
	}
}
