package notice

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

func TestDialogs(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want []Notice
	}{
		{
			name: "named dialog",
			in: Input{Outline: doc("Shop", el("main", "", heading("Deals")), el("dialog", "Subscribe to our newsletter",
				textbox("Email", "e3"), btn("Close", "e4"), btn("Subscribe", "e5")))},
			want: []Notice{{
				Kind:    calls.NoticeDialog,
				Message: `dialog "Subscribe to our newsletter" with buttons: "Close" [ref=e4], "Subscribe" [ref=e5]`,
				Detail:  map[string]string{"role": "dialog", "close": "e4"},
			}},
		},
		{
			name: "alertdialog named by its heading",
			in:   Input{Outline: doc("App", el("alertdialog", "", heading("Delete 3 files?"), txt("This cannot be undone."), btn("Cancel", "e1"), btn("Delete", "e2")))},
			want: []Notice{{
				Kind:    calls.NoticeDialog,
				Message: `alertdialog "Delete 3 files?" with buttons: "Cancel" [ref=e1], "Delete" [ref=e2]`,
				Detail:  map[string]string{"role": "alertdialog"},
			}},
		},
		{
			name: "unnamed dialog with an icon close",
			in:   Input{Outline: doc("App", el("dialog", "", txt("Your session will expire soon."), &outline.Node{Role: "button", Ref: "e7", Attrs: map[string]string{"title": "Close"}}))},
			want: []Notice{{
				Kind:    calls.NoticeDialog,
				Message: `dialog "Your session will expire soon." with buttons: "Close" [ref=e7]`,
				Detail:  map[string]string{"role": "dialog", "close": "e7"},
			}},
		},
		{
			name: "hidden dialog",
			in:   Input{Outline: doc("App", boxed(btn("Open", "e1"), 50, 20), el("dialog", "Settings", btn("Save", "e2")))},
		},
		{
			name: "javascript confirm",
			in:   Input{JSDialog: &JSDialog{Type: "confirm", Message: "Leave site?\nChanges you made may not be saved."}},
			want: []Notice{{
				Kind:    calls.NoticeDialog,
				Message: `JavaScript confirm "Leave site? Changes you made may not be saved." blocks the page until it is answered`,
				Detail:  map[string]string{"role": "javascript", "type": "confirm"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(tt.in)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Detect (-want +got):\n%s", d)
			}
		})
	}
}

// TestCookieDialogOnce checks that a cookie banner drawn as a dialog is
// reported as a cookie banner, and not again as a dialog.
func TestCookieDialogOnce(t *testing.T) {
	root := doc("Shop", el("dialog", "Privacy", txt("We use cookies."), btn("Reject", "e1"), btn("Accept", "e2")),
		el("dialog", "Newsletter", btn("Close", "e3")))
	got := kinds(Detect(Input{Status: 200, Outline: root}))
	if d := cmp.Diff([]string{calls.NoticeCookieBanner, calls.NoticeDialog}, got); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
}

// TestOrder checks that the strongest notice comes first.
func TestOrder(t *testing.T) {
	root := doc("Just a moment...", txt("We use cookies."), btn("Accept", "e1"), el("dialog", "Hi", btn("OK", "e2")))
	got := kinds(Detect(Input{Status: 403, Headers: headers("Cf-Mitigated", "challenge"), Outline: root, JSDialog: &JSDialog{Type: "alert", Message: "hi"}}))
	want := []string{calls.NoticeBotCheck, calls.NoticeDialog, calls.NoticeCookieBanner, calls.NoticeDialog}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
}

// TestNamedCookieDialog checks a consent dialog named for cookies, whose
// own name is the banner's words, and a dialog in main beside a banner.
func TestNamedCookieDialog(t *testing.T) {
	root := doc("Shop",
		el("main", "", txt("We use cookies."), btn("Accept", "e1"), el("dialog", "Newsletter", btn("Close", "e3"))),
		el("dialog", "Cookie consent", btn("Reject all", "e4"), btn("Accept all", "e5")))
	got := Detect(Input{Status: 200, Outline: root})
	if d := cmp.Diff([]string{calls.NoticeCookieBanner, calls.NoticeDialog, calls.NoticeDialog}, kinds(got)); d != "" {
		t.Fatalf("kinds (-want +got):\n%s", d)
	}
	root = doc("Shop", el("dialog", "Cookie consent", btn("Reject all", "e4"), btn("Accept all", "e5")))
	if d := cmp.Diff([]string{calls.NoticeCookieBanner}, kinds(Detect(Input{Outline: root}))); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
}
