package api

import (
	"testing"

	"github.com/waymark-dev/waymark/capture"
)

func TestLearnPageIsTheLastTopDocument(t *testing.T) {
	f := &capture.File{Exchanges: []capture.Exchange{
		{Kind: "document", URL: "https://shop.test/", Status: 200},
		{Kind: "fetch", URL: "https://shop.test/api/list", Status: 200},
		{Kind: "document", URL: "https://shop.test/lamps", Status: 200},
		{Kind: "document", URL: "https://ads.test/frame", Frame: "https://ads.test/frame", Status: 200},
		{Kind: "document", URL: "https://shop.test/gone", Status: 404},
	}}
	if got := learnPage("", f); got != "https://shop.test/lamps" {
		t.Errorf("learnPage = %q, want the last top document that loaded", got)
	}
	if got := learnPage("https://shop.test/given", f); got != "https://shop.test/given" {
		t.Errorf("learnPage with --page = %q", got)
	}
	if got := learnPage("", &capture.File{}); got != "" {
		t.Errorf("learnPage of an empty capture = %q", got)
	}
}
