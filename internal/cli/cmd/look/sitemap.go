package look

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// SitemapOptions are the flags of `waymark sitemap`.
type SitemapOptions struct {
	cmdutil.Common
	Origin string
	Query  string
	Limit  int
}

// NewCmdSitemap builds `waymark sitemap ORIGIN`.
func NewCmdSitemap(f *cmdutil.Factory, runF func(context.Context, *SitemapOptions) error) *cobra.Command {
	opts := &SitemapOptions{}
	cmd := &cobra.Command{
		Use:   "sitemap ORIGIN",
		Short: "List a site's pages without browsing it, ranked by words",
		Long: `List a site's pages without browsing them: the sitemaps its robots.txt
names (else /sitemap.xml; index files and gzip too), its /llms.txt, or,
when it publishes neither, a shallow crawl of its own links. Pages are
ranked by BM25 against --query over their URL's words, title and
description.

Requests are the browser's own (from a tab on the site: a new tab on its
robots.txt when the current one is elsewhere, closed after), GET only, on
the site's origin, under the URL policy, and never to a path whose words
act (logout, delete, pay, checkout, unsubscribe, …).`,
		Example: "  waymark sitemap https://shop.example --query 'desk lamp'\n  waymark sitemap shop.example --query returns --limit 5 --json",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Origin = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return sitemapRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Query, "query", "q", "", "rank the pages by these words (BM25); without it, the site's order")
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many pages (-1: all found)")
	return cmd
}

func sitemapRun(ctx context.Context, opts *SitemapOptions) error {
	s := opts.Remote()
	done, err := discover.OnSite(ctx, s, opts.Origin)
	if err != nil {
		return err
	}
	defer done()
	m, err := discover.Sitemap(ctx, s, opts.Origin, discover.Options{Query: opts.Query, Limit: opts.Limit, Policy: opts.UrlPolicy()})
	if err != nil {
		return err
	}
	return opts.Emit(m, func() error {
		for _, p := range m.Pages {
			line := p.URL
			if p.Title != "" {
				line += "  " + p.Title
			}
			if p.Score > 0 {
				line = fmt.Sprintf("%6.2f  %s", p.Score, line)
			}
			if _, err := fmt.Fprintln(opts.IO.Out, line); err != nil {
				return err
			}
		}
		from := "nothing"
		if len(m.Sources) > 0 {
			from = strings.Join(m.Sources, ", ")
		}
		opts.Note("%s of %d found, from %s; %s", cmdutil.Count(len(m.Pages), "page"), m.Found, from, cmdutil.Count(m.Requests, "request"))
		for _, t := range m.Truncated {
			opts.Note("cut: %s", t)
		}
		if len(m.Skipped) > 0 {
			opts.Note("skipped %s (--json lists them and why)", cmdutil.Count(len(m.Skipped), "URL"))
		}
		return nil
	})
}
