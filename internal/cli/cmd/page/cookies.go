package page

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// CookiesOptions are the flags of `waymark cookies …`.
type CookiesOptions struct {
	cmdutil.Common
	Request calls.CookieRequest
}

// NewCmdCookies builds `waymark cookies [get|set|clear]`; bare `cookies`
// gets them.
func NewCmdCookies(f *cmdutil.Factory, runF func(context.Context, *CookiesOptions) error) *cobra.Command {
	run := func(cmd *cobra.Command, opts *CookiesOptions) error {
		opts.Common = f.Common()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return cookiesRun(cmd.Context(), opts)
	}
	getOpts := &CookiesOptions{}
	cmd := &cobra.Command{
		Use:     "cookies [get|set NAME VALUE|clear]",
		Aliases: []string{"cookie"},
		Short:   "Read, set and clear the session's cookies",
		Example: "  waymark cookies\n  waymark cookies set theme dark --url https://example.com\n  waymark cookies clear",
		Args:    cmdutil.NoArgsOrSubcommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			getOpts.Request = calls.CookieRequest{Op: "get"}
			return run(cmd, getOpts)
		},
	}
	get := &cobra.Command{
		Use:   "get",
		Short: "Print the session's cookies",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			getOpts.Request = calls.CookieRequest{Op: "get"}
			return run(cmd, getOpts)
		},
	}

	setOpts := &CookiesOptions{}
	var c calls.Cookie
	set := &cobra.Command{
		Use:   "set NAME VALUE",
		Short: "Set a cookie (for the current page unless --url or --domain)",
		Args:  cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "" {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "a cookie needs a name")
			}
			if c.URL != "" && c.Domain != "" {
				return cmdutil.UsageErrorf("a cookie for a URL takes its domain from it", "give --url or --domain, not both")
			}
			if c.SameSite != "" {
				switch strings.ToLower(c.SameSite) {
				case "strict", "lax", "none":
					c.SameSite = strings.ToUpper(c.SameSite[:1]) + strings.ToLower(c.SameSite[1:])
				default:
					return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--same-site must be Strict, Lax or None, got %q", c.SameSite)
				}
			}
			ck := c
			ck.Name, ck.Value = args[0], args[1]
			setOpts.Request = calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{ck}}
			return run(cmd, setOpts)
		},
	}
	fl := set.Flags()
	fl.StringVar(&c.URL, "url", "", "the URL the cookie is for")
	fl.StringVar(&c.Domain, "domain", "", "the cookie's domain (e.g. .example.com)")
	fl.StringVar(&c.Path, "path", "", "the cookie's path")
	fl.BoolVar(&c.HTTPOnly, "http-only", false, "hide the cookie from page scripts")
	fl.BoolVar(&c.Secure, "secure", false, "send the cookie over HTTPS only")
	fl.StringVar(&c.SameSite, "same-site", "", "Strict, Lax or None")
	fl.Float64Var(&c.Expires, "expires", 0, "expiry in seconds since the epoch (0: a session cookie)")

	clearOpts := &CookiesOptions{}
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Delete all the session's cookies",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			clearOpts.Request = calls.CookieRequest{Op: "clear"}
			return run(cmd, clearOpts)
		},
	}
	cmd.AddCommand(get, set, clear)
	return cmd
}

func cookiesRun(ctx context.Context, opts *CookiesOptions) error {
	list, err := opts.Remote().Cookies(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(list, func() error {
		switch opts.Request.Op {
		case "set":
			opts.Note("set cookie %s", opts.Request.Cookies[0].Name)
		case "clear":
			opts.Note("cleared the cookies")
		default:
			return printCookies(&opts.Common, list.Cookies)
		}
		return nil
	})
}

func printCookies(c *cmdutil.Common, cookies []calls.Cookie) error {
	rows := make([][]string, 0, len(cookies))
	for _, ck := range cookies {
		var flags []string
		if ck.HTTPOnly {
			flags = append(flags, "httponly")
		}
		if ck.Secure {
			flags = append(flags, "secure")
		}
		if ck.SameSite != "" {
			flags = append(flags, "samesite="+ck.SameSite)
		}
		rows = append(rows, []string{ck.Name, ck.Value, ck.Domain, ck.Path, strings.Join(flags, ",")})
	}
	return cmdutil.PrintTable(c.IO.Out, c.IO.IsStdoutTTY(), []string{"NAME", "VALUE", "DOMAIN", "PATH", "FLAGS"}, rows)
}
