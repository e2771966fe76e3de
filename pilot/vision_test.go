package pilot_test

import (
	"errors"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

func TestThin(t *testing.T) {
	for _, c := range []struct {
		name string
		view *calls.View
		want bool
	}{
		{"none measured", nil, false},
		{"a chart over a third of the view", &calls.View{Graphics: 0.31, Controls: 12, Named: 12, Words: 300}, true},
		{"a logo and a form", &calls.View{Graphics: 0.05, Controls: 4, Named: 4, Words: 40}, false},
		{"a toolbar of icons", &calls.View{Controls: 8, Named: 3, Words: 200}, true},
		{"half the controls named", &calls.View{Controls: 8, Named: 4, Words: 200}, false},
		{"an empty-looking view", &calls.View{Controls: 1, Named: 1, Words: 5}, true},
		{"an article with one link", &calls.View{Controls: 1, Named: 1, Words: 400}, false},
	} {
		if got := pilot.Thin(c.view); got != c.want {
			t.Errorf("%s: Thin = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestParseVision(t *testing.T) {
	for in, want := range map[string]pilot.Vision{"": pilot.VisionAuto, "auto": pilot.VisionAuto, " Always ": pilot.VisionAlways, "never": pilot.VisionNever} {
		if got, err := pilot.ParseVision(in); err != nil || got != want {
			t.Errorf("ParseVision(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := pilot.ParseVision("sometimes"); !errors.Is(err, calls.ErrBadInput) || calls.Hint(err) == "" {
		t.Errorf("ParseVision(sometimes): %v; want bad input with a hint", err)
	}
}

// A model reads pictures only when it says so; the router asks the
// purpose's own model.
func TestReadsPictures(t *testing.T) {
	seeing := scripted.New()
	seeing.Pictures = true
	blind := scripted.New()
	if pilot.ReadsPictures(rules.New(), pilot.PurposeAct) || pilot.ReadsPictures(blind, pilot.PurposeAct) {
		t.Error("a text-only model said to read pictures")
	}
	if !pilot.ReadsPictures(seeing, pilot.PurposeExtract) {
		t.Error("a scripted model with Pictures does not read them")
	}
	ms := pilot.Models{Default: blind, ByPurpose: map[pilot.Purpose]pilot.Model{pilot.PurposeDecide: seeing}}
	if !pilot.ReadsPictures(ms, pilot.PurposeDecide) || pilot.ReadsPictures(ms, pilot.PurposeAct) || pilot.ReadsPictures(&ms, pilot.PurposeExtract) {
		t.Error("the router's purposes read pictures as their own models do not")
	}
}
