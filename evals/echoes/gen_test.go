package echoes

import (
	"reflect"
	"testing"
)

// A seed always gives the same pages, and the first pages use every
// encoder and every channel.
func TestGenerate(t *testing.T) {
	a, b := Generate(27, 24), Generate(27, 24)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("one seed gave two corpora")
	}
	enc, ch := map[string]bool{}, map[string]bool{}
	for _, p := range a {
		if p.Secret == "" || len(p.Echoes) < 2 {
			t.Errorf("%s: secret %q, %d echoes", p.Name, p.Secret, len(p.Echoes))
		}
		for _, e := range p.Echoes {
			enc[e.Encoder.Name], ch[e.Channel.Name] = true, true
		}
	}
	if len(enc) != len(Encoders) || len(ch) != len(Channels) {
		t.Errorf("the quick corpus uses %d of %d encoders and %d of %d channels", len(enc), len(Encoders), len(ch), len(Channels))
	}
}
