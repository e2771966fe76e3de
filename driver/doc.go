// Package driver holds the page: it starts or attaches to Chromium, keeps
// named sessions (each its own browser context with its tabs and ref table),
// builds the outline of a page and performs element and page actions with
// real input events. It never calls a model.
//
// # Quick start
//
//	b, err := driver.Launch(ctx, driver.Options{Policy: pol})
//	s, err := b.Session(ctx, "work")
//	s.Navigate(ctx, "https://example.com/")
//	outline, err := s.Outline(ctx) // refs to act on: @e1, @e2, …
//	s.Fill(ctx, "label=Email", "ann@example.com")
//	s.Click(ctx, `role=button[name="Sign in"]`, driver.WithTimeout(3*time.Second))
//
// The typed actions (Click, Fill, Select, …) build the request of
// [Session.Act], the one way an action reaches a page; a failure is one of
// package calls' sentinels, compared with [errors.Is]. Their target is a ref
// from the last outline or snapshot (the outline's [ref=e3] is "@e3" or
// "e3") or a locator: role=button[name="Sign in"], label=Email,
// text=Continue, placeholder=Search, testid=submit, css=#go. Plain words
// ("the Sign in button") are package pilot's to resolve, never the driver's.
// A typed action that would send a form, pay, delete or confirm is done
// unless [AskBeforeSubmit] is passed: the program chose the exact element.
//
// The calls a front makes are the plain request and result structs of
// package calls, so the daemon can carry them over its socket unchanged.
//
// # Layout: a core and feature rooms
//
// Package driver is the core and the public face: [Browser], [Session],
// its tabs, refs, looks, actions, settle and the send gate, and every
// method of calls.Session. Features that are engines of their own live in
// packages under driver/internal/, as rod's root stands on its lib/*:
//
//   - internal/netcap: network capture (the recorder of a capture file).
//   - internal/files: downloads (the watcher of a browser context) and
//     uploads (the folders they may come from).
//   - internal/netlogfile: reading the browser's NetLog (flush, then sum up).
//   - internal/form: reading and filling a form (js/form.js in every
//     frame, the fill's rounds, repeated sections, widgets, calendars)
//     and its own rules (written values, retries, ATS definitions, the
//     review of a multi-step form's pages); the secret registry and the
//     submit gate around a fill stay in the core.
//   - internal/elem: not a room but the rooms' shared vocabulary, the
//     element-level view: an element of the page (CallOn, NodesOn, Where,
//     Click, Fill, TypeText, SetChecked) whose every act is the core's.
//   - internal/pagetool: the page's WebMCP tools (list, arguments, call);
//     whether a call may be made is the core's send gate.
//   - internal/shot: drawing on a screenshot (masks, highlights); finding
//     the elements' boxes stays in the core.
//   - internal/doctext: driving a document editor (which editor, a read
//     by copy, the caret put at words, the text typed) and its text
//     (find, lines, where an insert goes and lands); the secret typed
//     into it stays the core's.
//   - internal/sheetcell: driving a spreadsheet (a range gone to and
//     copied, a cell typed and read back) and the cells a sheet write
//     names (references, one-line values, formulas that send, what a
//     fill's approval binds); asking for the approval stays in the core.
//   - internal/pagefetch: a request with fetch() from the isolated world
//     (the reply's codes, a redirect's Location); the URL policy's check
//     and the URL shown stay in the core.
//   - internal/clipboard: copying a selection as a hand does and reading
//     the clipboard; the permission in the session's browser context
//     stays in the core.
//   - internal/appmark: telling the application a tab shows (markers, a
//     canvas grid); the session's table of apps stays in the core.
//   - internal/store: cookies and web storage in the calls shapes;
//     sending them to the session's browser context stays in the core.
//
// The core, by concept (file names in this folder):
//
//   - the browser and its sessions: browser, session, target, tabs,
//     newtabs, firsttab, opened, health;
//   - a tab and its events: tab, frames, world, js, pending, settle,
//     surface (the doors the rooms use);
//   - refs and looks: refs, look, read, view, problems, invalid, blocked;
//   - acts: act, typed, element, pointer, edit, clickat, popup, nav;
//   - the send gate and approvals: sendgate, sendgate_workers, sendclass,
//     submit, entered;
//   - secrets by position and value: secret, registry, pagelog, mask;
//   - the URL policy and CDP errors: guard, netguard, files (file: URLs),
//     cdperr.
//
// The rest of the folder is each feature's session side (form*, ats,
// sheet*, document, clipboard, netcapture, netlog, download, pagetools*,
// capture, highlight, storage, fetch, api, apps): the public method, the
// session's part of it, and the call into its room where it has one.
// Rooms that act on elements (form, sheetcell, doctext) hold them as
// internal/elem's Element and see the session as a View of their own,
// both served by the core's doors in surface.go (frames_read reads every
// frame for a form).
//
// A feature package never imports driver (driver imports it, so the
// compiler forbids the cycle). It declares the narrow view of the core it
// needs as an interface (netcap.Tab: the tab's CDP target, its document,
// a script in the isolated world), and driver's unexported tab satisfies
// it through the one-line doors in surface.go. The public methods stay on
// [Session] and do the session's part (the send gate, the secret
// registry, the approval rule: each has one home, in the core) before and
// after they hand the work to the feature. deps_test.go keeps the floors:
// a feature package imports neither driver nor another feature room, nor
// a model.
package driver
