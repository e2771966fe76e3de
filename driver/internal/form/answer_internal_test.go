package form

import "testing"

func TestPickOption(t *testing.T) {
	opts := []string{"Springfield Gardens", "Springfield", "Spring Lake", "West Springfield"}
	for _, c := range []struct {
		answer string
		loose  bool
		want   int
	}{
		{"springfield", true, 1}, // exact beats the longer one starting with it
		{"Spring L", true, 2},    // the one starting with it
		{"Spring", true, -1},     // two start with it: a guess
		{"Lake", true, 2},        // the one containing it
		{"field", true, -1},      // three contain it
		{"Springfeld", true, -1}, // a near miss is none
		{"Spring", false, -1},    // a radio takes only its exact words
		{"  spring  LAKE ", false, 2},
		{"", true, -1},
	} {
		if got := PickOption(opts, c.answer, c.loose); got != c.want {
			t.Errorf("PickOption(%q, loose=%v) = %d, want %d", c.answer, c.loose, got, c.want)
		}
	}
}

func TestFoldKeyAndTruthy(t *testing.T) {
	if FoldKey("First name *") != FoldKey("first_name") || FoldKey("Experience[2].Company") != "experience[2].company" {
		t.Error("FoldKey")
	}
	for v, want := range map[string]bool{"yes": true, "True": true, "x": true, "no": false, "": false} {
		if got, ok := Truthy(v); !ok || got != want {
			t.Errorf("Truthy(%q) = %v %v", v, got, ok)
		}
	}
	if _, ok := Truthy("maybe"); ok {
		t.Error("Truthy(maybe) is not an answer")
	}
}

func TestCalendarStep(t *testing.T) {
	cal := func(header string, cells ...[2]string) Calendar {
		var c Calendar
		c.Header = header
		for _, x := range cells {
			c.Cells = append(c.Cells, struct {
				Label string `json:"label"`
				Text  string `json:"text"`
			}{x[0], x[1]})
		}
		return c
	}
	for _, c := range []struct {
		name    string
		cal     Calendar
		day     int
		dir     string
		wantErr bool
	}{
		{"cells say their dates", cal("", [2]string{"Sunday, 28 February 2027", "28"}, [2]string{"Monday, 1 March 2027", "1"}), 1, "", false},
		{"an earlier month", cal("", [2]string{"2027-01-01", "1"}), -1, "next", false},
		{"a later month", cal("", [2]string{"2027-05-01", "1"}), -1, "prev", false},
		{"the header says the month", cal("March 2027", [2]string{"", "28"}, [2]string{"", "1"}), 1, "", false},
		{"the header says another", cal("April 2027", [2]string{"", "1"}), -1, "prev", false},
		{"no month at all", cal("", [2]string{"", "1"}), -1, "", true},
	} {
		day, dir, err := CalendarStep(c.cal, 2027, 3, 1)
		if day != c.day || dir != c.dir || (err != nil) != c.wantErr {
			t.Errorf("%s: CalendarStep = %d %q %v, want %d %q (error %v)", c.name, day, dir, err, c.day, c.dir, c.wantErr)
		}
	}
}
