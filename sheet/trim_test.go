package sheet

import (
	"reflect"
	"testing"
)

func TestTrim(t *testing.T) {
	rows := [][]Cell{{{Value: "a"}, {}, {Bold: true}}, {{}, {Value: "b"}}, {{}, {}}, {{Fill: "red"}}}
	got := Trim(rows)
	want := [][]Cell{{{Value: "a"}, {}}, {{}, {Value: "b"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Trim = %+v", got)
	}
	if got := Trim([][]Cell{{{}}}); len(got) != 0 {
		t.Fatalf("Trim of blanks = %+v", got)
	}
}
