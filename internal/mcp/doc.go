// Package mcp is waymark's MCP front: it serves the browser calls of
// package calls as Model Context Protocol tools, over stdio or the
// streamable HTTP transport on loopback, with the official
// modelcontextprotocol/go-sdk.
//
// The tools are thin: each turns its typed input into one request of package
// calls and sends it through a [calls.Caller] (the daemon client, or anything that
// makes the same calls) for one waymark session.
//
//	navigate back snapshot click fill type press select check uncheck hover
//	scroll upload drag wait screenshot tabs dialog console network [eval] [capture] [sitemap api_call] [page_tool]
//	and, once a look names a spreadsheet or an editor (or with [Options.Apps]):
//	sheet_read sheet_dump sheet_write sheet_fill doc_read doc_find doc_insert
//
// eval is registered only with [Options.AllowEval], capture only with
// [Options.AllowCapture], sitemap and api_call only with [Options.SiteTools];
// page_tool is added when a look first shows a page that offers tools
// (discover.go). The pilot's tools (act,
// observe, extract, run, replay) are added by whoever builds the server,
// through [Options.Extra], with [PilotTools].
//
// # Sessions
//
// Each client acts on a waymark session of its own, closed when the client
// leaves, unless a person named one ([Options.Session], or an HTTP client's
// /mcp?session=NAME): see sessions.go. Over HTTP, a request from a web page
// of another origin is refused.
//
// # Submits
//
// A click or key (from an element tool or act) that would send a form,
// pay, delete or confirm is put to the person through MCP elicitation,
// and pressed only if they accept and the page still matches what they
// were shown; a client that cannot ask gets [Options.Submits]. A question
// the person could not answer (the client answered it with an error, or
// no answer came) presses nothing and answers needs_approval, as a client
// that cannot ask is answered. The agent has no argument to approve with:
// see approve.go. run and replay ask the
// person as they reach a submit when the client can be asked in the
// middle of a call (elicitation, before the 2026-07-28 protocol), and
// otherwise follow [Options.Submits]; a replay also presses the submits
// the person approved when recording the routine by hand. A recipe's
// sign-in routine (relogin, for api_call and replay's api steps) is read
// through [Options.Approvals] and replayed with [Options.Secrets]: see
// signin.go. With the rules model (no key) act also takes a sentence of
// plain steps and does them in turn, as run would (act_steps.go).
//
// # Replies
//
// Tool descriptions are kept short because every client sends the whole
// tool list to its model on every turn; targets are explained in the
// server's instructions and in one line on each target field. Annotations,
// field descriptions, enums and output schemas are in annotations.go.
//
// An action (and navigate, back, wait, dialog) answers with its outcome and a look
// at the page: the driver's --changes look (calls.SnapshotRequest.Changes)
// for this client, whose last look the driver keeps by its reader name
// (this server's id and the MCP session's), apart from the shell's and
// other clients' on a shared session. On the same page that is the lines
// changed since the client's last interactive whole-page look when shorter
// ("+ " added, "- " removed, "~ " an element that now reads so); on a new
// page of the same site, the outline with each region that reads as the
// last page's (banner, navigation, footer) as one "(unchanged)" line whose
// refs still act; otherwise the whole outline. The snapshot tool always
// returns the whole outline it was asked for, and becomes the last look.
//
// An element action's outcome also names a cookie or app banner the driver
// closed before acting, and each download the action started, with its path
// or why it stopped: the session tells of a download once, so this reply is
// where the agent hears of it.
//
// # Errors
//
// A failure of the page (a stale ref, a timeout, a navigation error) comes
// back as a tool result with IsError set, holding the message and the hint
// of [calls.Hint], so that the model can act on it. Protocol errors are left
// to the SDK (an unknown tool, arguments that do not fit the schema).
package mcp
