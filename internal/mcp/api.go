package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/siteapi"
)

// The site API tool (issue 18): call the JSON API behind a list by a
// recipe `waymark api learn` wrote, from a tab of the site.

type apiCallIn struct {
	Recipe string            `json:"recipe" jsonschema:"path of a waymark.api/1 recipe file, or its JSON"`
	Vars   map[string]string `json:"vars,omitempty" jsonschema:"values of the recipe's variables"`
	Pages  int               `json:"pages,omitempty" jsonschema:"pages to read; default every page (up to 100)"`
}

// registerAPI adds the api_call tool.
func (t *tools) registerAPI(s *sdk.Server) {
	add(s, "api_call", "Read a list from the site's own JSON API by a recipe (waymark api learn): no page reading. It reads (GET, or a POST learned a read); a request that is not a read is put to the person first.", func(ctx context.Context, r *sdk.CallToolRequest, in apiCallIn) (string, calls.APICallResult, error) {
		raw := []byte(in.Recipe)
		file := "" // where the recipe is: its relogin is found next to it
		if !strings.HasPrefix(strings.TrimSpace(in.Recipe), "{") {
			var err error
			file, err = hostFile(in.Recipe, "api_call") // files.go: the working and routines folders only
			if err != nil {
				return "", calls.APICallResult{}, err
			}
			b, err := os.ReadFile(file)
			if err != nil {
				return "", calls.APICallResult{}, calls.Errorf(calls.ErrBadInput, "give the path of a recipe "+calls.Cmd("api learn")+" wrote, or its JSON", "%v", err)
			}
			raw = b
		}
		recipe, err := siteapi.Parse(raw)
		if err != nil {
			return "", calls.APICallResult{}, err
		}
		// A call reads; a request of it that is not a read (siteapi's
		// gate) is put to the person, like a submit (approve.go). A call
		// the site refuses as auth signs in again once, when the recipe
		// names how (signin.go).
		signedIn := false
		res, stop := gate(ctx, r, func(approve *calls.Approval, allow bool) (*calls.APICallResult, error) {
			req := calls.APICallRequest{Recipe: json.RawMessage(raw), Vars: in.Vars, Pages: in.Pages, Fresh: true, Approve: approve}
			res, again, err := siteapi.Relogin(ctx, recipe, func(ctx context.Context) (*calls.APICallResult, error) {
				return t.s.CallAPI(ctx, req)
			}, t.signIn(r, file, "api_call", in.Vars))
			signedIn = signedIn || again
			if err != nil && allow && approve == nil {
				// [mcp] submits = "allow", for a client that cannot ask:
				// the person chose to let these through in the config.
				if a, ok := calls.ApprovalOf(err); ok {
					req.Approve = &a
					return t.s.CallAPI(ctx, req)
				}
			}
			return res, err
		})
		if stop != nil {
			return "", calls.APICallResult{}, answered(stop)
		}
		if res.Rows == nil {
			res.Rows = []map[string]any{}
		}
		text := apiText(res)
		if signedIn {
			text = "signed in again by " + recipe.Relogin + "\n" + text
		}
		return text, *res, nil
	})
}

// apiText says what a call read, then its rows as JSON, one a line: the
// rows are the site's words, as data.
func apiText(res *calls.APICallResult) string {
	var b strings.Builder
	if res.Unchanged {
		b.WriteString("unchanged since the recipe's last read: no rows")
	} else {
		fmt.Fprintf(&b, "%d rows, %d pages, %d requests; ended: %s", len(res.Rows), res.Pages, res.Requests, res.Ended)
	}
	for _, row := range res.Rows {
		line, _ := json.Marshal(row)
		b.WriteString("\n" + string(line))
	}
	return b.String()
}
