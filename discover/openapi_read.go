package discover

import (
	"fmt"
	"log/slog"
	"net/url"
	"sort"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	v2 "github.com/pb33f/libopenapi/datamodel/high/v2"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/utils"
)

// An OpenAPI description is read with libopenapi (OpenAPI 3.0 and 3.1,
// Swagger 2; JSON or YAML; $ref resolved): the descriptions sites serve
// put their responses and parameters in components behind $ref, which a
// reader of the top level alone missed (an endpoint whose 200 was a $ref
// was not taken for JSON, and dropped). Only references inside the
// description are followed: another file or URL it names is never read,
// as nothing but the browser's own requests may reach a site.

// openAPI is what discovery uses of a description.
type openAPI struct {
	// server is the first server's URL (OpenAPI 3), or Swagger 2's
	// scheme://host/basePath (only basePath, relative, without a host);
	// "" when the description names none.
	server string
	gets   []openAPIGet // its GET operations, by path
}

// openAPIGet is one GET operation.
type openAPIGet struct {
	path, id, summary string
	query             []string // the required query parameters
	json              bool     // a success answers JSON
}

// readOpenAPI reads an OpenAPI 3.x or Swagger 2 description: the part
// of it discovery reads (pruneOpenAPI). A panic of the library on a
// description it did not expect is a description that cannot be read,
// not the end of the daemon that read it.
func readOpenAPI(b []byte) (api *openAPI, err error) {
	b, err = pruneOpenAPI(b)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			api, err = nil, fmt.Errorf("unreadable OpenAPI description (the reader failed: %v)", r)
		}
	}()
	doc, err := libopenapi.NewDocumentWithConfiguration(b, &datamodel.DocumentConfiguration{
		// The library logs to stdout by default: the MCP server's
		// protocol channel. Nothing of it is wanted.
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		return nil, fmt.Errorf("not an OpenAPI description: %v", firstLine(err))
	}
	info := doc.GetSpecInfo()
	switch {
	case info == nil:
		return nil, fmt.Errorf("not an OpenAPI description (no openapi or swagger version)")
	case info.SpecType == utils.OpenApi2:
		m, err := doc.BuildV2Model()
		if m == nil {
			return nil, fmt.Errorf("unreadable Swagger 2 description: %v", firstLine(err))
		}
		return fromSwagger(&m.Model), nil
	case info.SpecType == utils.OpenApi3:
		m, err := doc.BuildV3Model()
		if m == nil {
			return nil, fmt.Errorf("unreadable OpenAPI description: %v", firstLine(err))
		}
		return fromOpenAPI3(&m.Model), nil
	}
	return nil, fmt.Errorf("not an OpenAPI description (no openapi or swagger version)")
}

// firstLine is an error's first line, for a skip's reason: libopenapi
// joins every problem it met.
func firstLine(err error) string {
	if err == nil {
		return "no model"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

func fromOpenAPI3(d *v3.Document) *openAPI {
	api := &openAPI{}
	if len(d.Servers) > 0 && d.Servers[0] != nil {
		api.server = d.Servers[0].URL
	}
	if d.Paths == nil || d.Paths.PathItems == nil {
		return api
	}
	for path, item := range d.Paths.PathItems.FromOldest() {
		if item == nil || item.Get == nil {
			continue
		}
		op := item.Get
		g := openAPIGet{path: path, id: op.OperationId, summary: op.Summary}
		g.query = requiredQuery(params3(item.Parameters), params3(op.Parameters))
		g.json = answersJSON3(op.Responses)
		api.gets = append(api.gets, g)
	}
	sortGets(api.gets)
	return api
}

// param is what is read of a parameter: where it goes, and whether a
// request must carry it.
type param struct {
	name, in string
	required *bool
}

// requiredQuery are the required query parameters of an operation: the
// path item's, with the operation's own in their place where both name
// one (both versions say so).
func requiredQuery(item, op []param) []string {
	required := map[string]bool{}
	var order []string
	for _, ps := range [][]param{item, op} {
		for _, p := range ps {
			if p.in != "query" {
				continue
			}
			if _, seen := required[p.name]; !seen {
				order = append(order, p.name)
			}
			required[p.name] = p.required != nil && *p.required
		}
	}
	var out []string
	for _, n := range order {
		if required[n] {
			out = append(out, n)
		}
	}
	return out
}

func params3(ps []*v3.Parameter) []param {
	out := make([]param, 0, len(ps))
	for _, p := range ps {
		if p != nil {
			out = append(out, param{p.Name, p.In, p.Required})
		}
	}
	return out
}

func params2(ps []*v2.Parameter) []param {
	out := make([]param, 0, len(ps))
	for _, p := range ps {
		if p != nil {
			out = append(out, param{p.Name, p.In, p.Required})
		}
	}
	return out
}

// answersJSON3 says whether a success (2xx or default) answers a JSON
// media type.
func answersJSON3(rs *v3.Responses) bool {
	if rs == nil {
		return false
	}
	ok := func(r *v3.Response) bool {
		if r == nil || r.Content == nil {
			return false
		}
		for t := range r.Content.KeysFromOldest() {
			if isJSONType(t) {
				return true
			}
		}
		return false
	}
	if ok(rs.Default) {
		return true
	}
	if rs.Codes == nil {
		return false
	}
	for code, r := range rs.Codes.FromOldest() {
		if strings.HasPrefix(code, "2") && ok(r) {
			return true
		}
	}
	return false
}

func fromSwagger(d *v2.Swagger) *openAPI {
	api := &openAPI{}
	switch {
	case d.Host != "":
		scheme := "https"
		if len(d.Schemes) > 0 {
			scheme = d.Schemes[0]
		}
		api.server = (&url.URL{Scheme: scheme, Host: d.Host, Path: d.BasePath}).String()
	case d.BasePath != "":
		api.server = (&url.URL{Path: d.BasePath}).String()
	}
	if d.Paths == nil || d.Paths.PathItems == nil {
		return api
	}
	for path, item := range d.Paths.PathItems.FromOldest() {
		if item == nil || item.Get == nil {
			continue
		}
		op := item.Get
		g := openAPIGet{path: path, id: op.OperationId, summary: op.Summary}
		g.query = requiredQuery(params2(item.Parameters), params2(op.Parameters))
		// Swagger 2 says what an operation answers in produces, its own
		// or else the description's.
		produces := op.Produces
		if len(produces) == 0 {
			produces = d.Produces
		}
		for _, t := range produces {
			g.json = g.json || isJSONType(t)
		}
		api.gets = append(api.gets, g)
	}
	sortGets(api.gets)
	return api
}

// isJSONType says whether a media type is JSON's (application/json,
// application/vnd.api+json, application/problem+json…).
func isJSONType(t string) bool {
	return strings.Contains(strings.ToLower(t), "json")
}

// sortGets puts the operations in the order of their paths: the
// candidates of one description come in the same order every time.
func sortGets(gets []openAPIGet) {
	sort.Slice(gets, func(i, j int) bool { return gets[i].path < gets[j].path })
}
