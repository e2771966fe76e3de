package doctor

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/apps"
)

// `waymark doctor --apps`: the applications waymark knows (the config's
// [[apps]], then the built-in ones), how each is known, and whether its
// adapter was checked: Google's and Microsoft's are written from their
// documented structure and stay "unverified" until a check against the
// live site passes.

// doctorApp is one application of `doctor --apps --json`.
type doctorApp struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	Hosts  []string `json:"hosts,omitempty"`
	Paths  []string `json:"paths,omitempty"`
	Marker string   `json:"marker,omitempty"`
	// Status is "unverified" (written from the app's documented
	// structure), "tested" (the tests work the real app, served from
	// npm), "untested" (known by its structure; no test works it yet),
	// "unreadable" (a sheet waymark knows it cannot read, so the sheet
	// commands say why; tested against the real app) or "config" (the
	// user's own).
	Status string `json:"status"`
}

// doctorApps prints the app table.
func doctorApps(o *DoctorOptions) error {
	cfg, err := o.LoadConfig()
	if err != nil {
		return err
	}
	var out []doctorApp
	for _, a := range apps.With(cfg.Apps) {
		status := "untested"
		switch {
		case a.User:
			status = "config"
		case a.Unreadable != "":
			status = "unreadable"
		case a.Unverified:
			status = "unverified"
		case a.Tested:
			status = "tested"
		}
		out = append(out, doctorApp{Name: a.Name, Kind: a.Kind, Hosts: a.Hosts, Paths: a.Paths, Marker: a.Marker, Status: status})
	}
	return o.Emit(out, func() error {
		for _, a := range out {
			where := strings.Join(a.Hosts, ", ")
			if len(a.Paths) > 0 {
				where += " " + strings.Join(a.Paths, ", ")
			}
			if a.Marker != "" {
				if where != "" {
					where += " with "
				}
				where += "a page matching " + a.Marker
			} else if where == "" {
				where = "anywhere"
			}
			note := map[string]string{
				"unverified": "unverified: written from its documented structure; no check against the live site has passed",
				"tested":     "tested: the tests work the real app, installed from npm",
				"untested":   "untested: known by its structure; no test works it yet",
				"config":     "from your config",
				"unreadable": "cannot be read: known so the sheet commands say why (drawn on a canvas, no name box, no cells in the page); tested against the real app",
			}[a.Status]
			if _, err := fmt.Fprintf(o.IO.Out, "%s (%s): %s — %s\n", a.Name, a.Kind, where, note); err != nil {
				return err
			}
		}
		return nil
	})
}
