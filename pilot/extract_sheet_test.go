package pilot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/sheet"
)

// sheetGrid builds a grid from lines of cells parted by "|".
func sheetGrid(lines ...string) *sheet.Grid {
	g := &sheet.Grid{}
	for _, l := range lines {
		var row []sheet.Cell
		if l != "" {
			for _, v := range strings.Split(l, "|") {
				row = append(row, sheet.Cell{Value: v})
			}
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

var sheetNow = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

const ordersSheetSchema = `{"type":"object","properties":{"orders":{"type":"array","items":{"type":"object","properties":{
"date":{"type":["string","null"],"format":"date"},"client":{"type":["string","null"]},"amount":{"type":["number","null"]},"paid":{"type":["boolean","null"]},"memo":{"type":["string","null"]}}}}}}`

func ordersSheet() *sheet.Grid {
	return sheetGrid(
		"Orders 2026", "",
		"Date|Customer|Amount|Paid|Info",
		"24/01/2026|Ann|$12.50|yes|",
		"03/02/2026|Bob|$1,200.00|no|call back",
		"Total||$1,212.50||",
	)
}

// Headers place every field they name with no model; a field no header
// places is null and the note says so; the grid recipe learned reads the
// same rows again.
func TestExtractSheetNoModel(t *testing.T) {
	p := pilot.New(nil, nil, nil)
	res, err := p.ExtractSheet(context.Background(), ordersSheet(), "every order", json.RawMessage(ordersSheetSchema), pilot.ExtractOptions{Learn: true, Now: sheetNow})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"orders":[{"amount":12.5,"client":"Ann","date":"2026-01-24","memo":null,"paid":true},{"amount":1200,"client":"Bob","date":"2026-02-03","memo":null,"paid":false}]}`
	if string(res.Data) != want || !res.OK || res.Source != pilot.SourceSheet || res.Rows != 2 || res.Usage != (pilot.Usage{}) {
		t.Fatalf("%s\n%+v", res.Data, res)
	}
	if !strings.Contains(res.Note, "no header places memo") || res.Table != "A3:E6 'Orders 2026': 2 rows; Date, Customer, Amount (currency), Paid (yes/no), Info; total row 6" {
		t.Errorf("note %q, table %q", res.Note, res.Table)
	}
	// memo has no column: no recipe.
	if res.Grid != nil || !strings.Contains(res.RecipeNote, "memo is in no column") {
		t.Errorf("recipe %+v, note %q", res.Grid, res.RecipeNote)
	}
}

// Only the unplaced field goes to the model, over the compressed view;
// letters outside the table or on a placed column are refused and asked
// again; the recipe then reads the sheet with no model after rows are
// added above and columns swapped, and a renamed header is a misfit.
func TestExtractSheetModelPlacesColumns(t *testing.T) {
	var seen []pilot.Turn
	check := func(tn pilot.Turn) error { seen = append(seen, tn); return nil }
	m := scripted.New(
		scripted.Step{Purpose: pilot.PurposeExtract, Check: check, Reply: pilot.Reply{Data: json.RawMessage(`{"columns":{"memo":"B"}}`)}},
		scripted.Step{Purpose: pilot.PurposeExtract, Check: check, Reply: pilot.Reply{Data: json.RawMessage(`{"columns":{"memo":"E"}}`)}},
	)
	defer m.Verify(t)
	p := pilot.New(nil, m, nil)
	schema := json.RawMessage(ordersSheetSchema)
	res, err := p.ExtractSheet(context.Background(), ordersSheet(), "every order", schema, pilot.ExtractOptions{Learn: true, Now: sheetNow})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Data), `"memo":"call back"`) || res.Grid == nil || res.Note != "" {
		t.Fatalf("%s %+v", res.Data, res)
	}
	msg := seen[0].Messages[0].Text
	for _, want := range []string{"- memo (string): which column?", "- client (string): column B, placed by its header", "<page_content", `- E "Info": text, 1 values, 1 distinct`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, msg)
		}
	}
	if retry := seen[1].Messages[2].Text; !strings.Contains(retry, "column B already holds field client") {
		t.Errorf("retry: %s", retry)
	}

	// The recipe, with no model, after rows added above and columns swapped.
	moved := sheetGrid(
		"Q1 report", "", "x|y", "", "Orders 2026", "",
		"Info|Paid|Amount|Customer|Date",
		"|yes|$12.50|Ann|24/01/2026",
		"call back|no|$1,200.00|Bob|03/02/2026",
	)
	p = pilot.New(nil, nil, nil)
	again, err := p.ExtractWith(context.Background(), "every order", schema, pilot.ExtractOptions{Grid: res.Grid, Now: sheetNow,
		Sheet: func(context.Context) (*sheet.Grid, error) { return moved, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Data) != string(res.Data) || again.Source != pilot.SourceRecipe {
		t.Errorf("by recipe:\n%s\nwant\n%s", again.Data, res.Data)
	}
	moved.Rows[6][0].Value = "Notes"
	_, err = p.ExtractWith(context.Background(), "every order", schema, pilot.ExtractOptions{Grid: res.Grid, Now: sheetNow,
		Sheet: func(context.Context) (*sheet.Grid, error) { return moved, nil }})
	var ce *calls.Error
	if !errors.As(err, &ce) || ce.Kind != calls.ErrNoMatch || !strings.Contains(ce.Msg, `the header "Info" (field memo) is gone`) {
		t.Errorf("renamed header: %v", err)
	}
	// A grid recipe on a page that is no sheet.
	if _, err := p.ExtractWith(context.Background(), "x", schema, pilot.ExtractOptions{Grid: res.Grid}); !errors.As(err, &ce) || ce.Kind != calls.ErrBadInput {
		t.Errorf("no sheet: %v", err)
	}
}

// bigSheet is 1,000 rows × 26 columns of orders: dates, names, amounts,
// yes/no, codes and text.
func bigSheet() *sheet.Grid {
	head := []string{"Date", "Customer", "Amount", "Paid", "Region", "Rep", "SKU", "Units", "Unit price", "Discount"}
	for len(head) < 26 {
		head = append(head, fmt.Sprintf("Metric %d", len(head)))
	}
	g := &sheet.Grid{}
	row := func(vals []string) {
		r := make([]sheet.Cell, len(vals))
		for i, v := range vals {
			r[i] = sheet.Cell{Value: v}
		}
		g.Rows = append(g.Rows, r)
	}
	row(head)
	regions := []string{"North", "South", "East", "West"}
	for i := 1; i < 1000; i++ {
		v := []string{
			time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%365).Format("2006-01-02"),
			fmt.Sprintf("Customer %d", i%97), fmt.Sprintf("$%d.%02d", i*7%5000, i%100), []string{"yes", "no"}[i%2],
			regions[i%4], fmt.Sprintf("Rep %d", i%12), fmt.Sprintf("SKU-%05d", i*31%99991), strconv.Itoa(i % 40), fmt.Sprintf("%d.50", i%90), fmt.Sprintf("%d%%", i%25),
		}
		for len(v) < 26 {
			v = append(v, strconv.Itoa((i*len(v))%1013))
		}
		row(v)
	}
	return g
}

// TestSheetTokens measures the model tokens an extract on a 1,000 × 26
// sheet sends, against a model reading the whole grid as text (the
// pilot's page extract over the grid's text, in as many parts as it
// takes). Goal: at most a tenth. Tokens are o200k when gpt-tokenizer is
// installed (bench/setup.sh, or WAYMARK_TOKENIZER_DIR naming a folder
// holding node_modules/gpt-tokenizer), else characters / 4.
func TestSheetTokens(t *testing.T) {
	g := bigSheet()
	schema := json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"date":{"type":"string","format":"date"},"client":{"type":"string"},"amount":{"type":"number"},"paid":{"type":"boolean"},"territory":{"type":"string"},"seller":{"type":"string"}}}}`)
	var sheetTurns []pilot.Turn
	m := scripted.New(scripted.Step{Purpose: pilot.PurposeExtract, Check: func(tn pilot.Turn) error { sheetTurns = append(sheetTurns, tn); return nil },
		Reply: pilot.Reply{Data: json.RawMessage(`{"columns":{"seller":"F"}}`)}})
	res, err := pilot.New(nil, m, nil).ExtractSheet(context.Background(), g, "every order with its seller", schema, pilot.ExtractOptions{Now: sheetNow})
	if err != nil || !res.OK || res.Rows != 999 {
		t.Fatalf("%v %+v", err, res)
	}
	m.Verify(t)
	var rows []map[string]any
	json.Unmarshal(res.Data, &rows)
	if rows[998]["seller"] != "Rep 3" || rows[0]["territory"] != "South" || rows[0]["amount"] != 7.01 {
		t.Errorf("rows: %v %v", rows[0], rows[998])
	}

	// The whole grid as text, read by the pilot's page extract.
	s := newSite()
	s.pages["https://sheet.test/"] = &fakePage{title: "Orders", lines: func(*site) []string { return strings.Split(strings.TrimSuffix(g.Text(), "\n"), "\n") }}
	s.cur = "https://sheet.test/"
	var wholeTurns []pilot.Turn
	var steps []scripted.Step
	for i := 0; i < 100; i++ {
		steps = append(steps, scripted.Step{Purpose: pilot.PurposeExtract, Check: func(tn pilot.Turn) error { wholeTurns = append(wholeTurns, tn); return nil },
			Reply: pilot.Reply{Data: json.RawMessage(`[]`)}})
	}
	whole := scripted.New(steps...)
	if _, err := pilot.New(s, whole, &pilot.Options{MaxChunks: 100}).Extract(context.Background(), "every order with its seller", schema); err != nil {
		t.Fatal(err)
	}
	text := func(turns []pilot.Turn) string {
		var b strings.Builder
		for _, tn := range turns {
			b.WriteString(tn.System)
			b.Write(tn.Schema)
			for _, m := range tn.Messages {
				b.WriteString(m.Text)
			}
		}
		return b.String()
	}
	a, w := text(sheetTurns), text(wholeTurns)
	ta, how := tokens(t, a)
	tw, _ := tokens(t, w)
	t.Logf("extract on the sheet: 1 call, %d chars, %d tokens; the whole grid as text: %d calls, %d chars, %d tokens (%s); ratio %.4f",
		len(a), ta, len(wholeTurns), len(w), tw, how, float64(ta)/float64(tw))
	if ta*10 > tw {
		t.Errorf("the sheet's extract sends %d tokens, more than a tenth of %d", ta, tw)
	}
}

// tokens counts o200k tokens with gpt-tokenizer through node when it is
// installed, else estimates characters / 4.
func tokens(t *testing.T, s string) (int, string) {
	dirs := []string{os.Getenv("WAYMARK_TOKENIZER_DIR"), filepath.Join("..", "bench")}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "node_modules", "gpt-tokenizer")); err != nil {
			continue
		}
		cmd := exec.Command("node", "--input-type=module", "-e",
			`import {encode} from 'gpt-tokenizer/encoding/o200k_base'; let s=''; process.stdin.on('data', d => s += d); process.stdin.on('end', () => console.log(encode(s).length));`)
		cmd.Dir = d
		cmd.Stdin = strings.NewReader(s)
		out, err := cmd.Output()
		if err != nil {
			t.Logf("gpt-tokenizer in %s: %v", d, err)
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err == nil {
			return n, "o200k"
		}
	}
	return len(s) / 4, "chars/4"
}
