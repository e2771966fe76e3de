package sheet

import "testing"

func TestRefs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Ref
		back string
	}{
		{"A1", Ref{0, 0}, "A1"},
		{"b2", Ref{1, 1}, "B2"},
		{"$Z$9", Ref{8, 25}, "Z9"},
		{"AA10", Ref{9, 26}, "AA10"},
		{"AZ1", Ref{0, 51}, "AZ1"},
		{"ZZZ3", Ref{2, 18277}, "ZZZ3"},
	} {
		got, err := ParseRef(c.in)
		if err != nil || got != c.want || got.String() != c.back {
			t.Errorf("ParseRef(%q) = %v %q, %v; want %v %q", c.in, got, got.String(), err, c.want, c.back)
		}
	}
	for _, bad := range []string{"", "A", "1", "A0", "1A", "A1B", "AAAA1", "A99999999"} {
		if _, err := ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
	r, err := ParseRange("C20:A1")
	if err != nil || r.String() != "A1:C20" || r.Rows() != 20 || r.Cols() != 3 {
		t.Fatalf("ParseRange = %v %v", r, err)
	}
}
