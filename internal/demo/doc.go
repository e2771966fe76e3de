// Package demo is a small web shop with test pages, embedded in the binary
// and served by "waymark demo serve". Demos, tests and benchmarks of waymark
// drive it with a browser; tests then ask the [Site] what happened on the
// server ([Site.Session], [Site.LastOrder]) instead of trusting the page.
//
// The pages are server-rendered HTML with a little plain JavaScript, all
// embedded with go:embed (templates/, static/). Each browser gets a session
// by the cookie demo_sid, set on its first visit and kept in memory.
//
// The one account is [DemoEmail] / [DemoPassword]
// (ann@example.com / demo-pass-123).
//
// # Routes
//
// Shop:
//
//	GET  /                    home page, links to everything
//	GET  /login               sign-in form (email, password, "Sign in"); ?next=/path
//	POST /login               wrong credentials: the form again with an error, 401;
//	                          right: signed in, 303 to ?next= or /account
//	POST /logout              signed out, 303 to /
//	GET  /account             the signed-in email and orders; else 303 to /login
//	GET  /products?page=N     24 products, 8 a page, Previous/Next and page numbers
//	GET  /products/{id}       name, price, description, Quantity and "Add to cart"
//	                          (fetch to /api/cart, then the badge reads "Cart (N)")
//	GET  /cart                cart lines with Remove buttons
//	POST /cart/add            form fallback of "Add to cart" (id, qty); 303 to /cart
//	POST /cart/remove         remove the line of product id; 303 to /cart
//	GET  /api/cart            {"count", "items", "total_cents"}
//	POST /api/cart            add {"id": 3, "qty": 1} (JSON or form); same reply
//	GET  /api/state           the caller's [SessionState] as JSON
//	GET  /checkout            checkout form: name, email, password, country select,
//	                          shipping radios, terms and newsletter checkboxes,
//	                          delivery date, notes, invoice file, "Place order"
//	POST /checkout            errors: the form again with messages, 422;
//	                          else the order is stored and 303 to /orders/{number}
//	GET  /orders/{number}     confirmation with the order number (own session only)
//
// Test pages:
//
//	GET  /embed               an iframe of /frame/payment from the other loopback
//	                          name (localhost <-> 127.0.0.1, same port): cross-site
//	GET  /frame/payment       "Card payment", textbox "Card number", button "Pay";
//	                          ?sid= names the embedding page's session
//	POST /frame/pay           {"sid", "card"}: records the payment; the frame shows "Paid"
//	GET  /widgets             <demo-counter> with an open shadow root ("Increment"),
//	                          and a light-DOM counter button
//	GET  /modal               "Open dialog" opens a <dialog> with Confirm/Cancel
//	GET  /modal/overlay       a fixed overlay covers "Buy now" 500 ms after load (?delay=ms)
//	GET  /slow?ms=N           a page answered after N ms (default 1000, at most 10 s)
//	GET  /api/slow?ms=N       the same as JSON {"ms", "message": "Loaded"}
//	GET  /slow-page           "Load data" fetches /api/slow?ms=800, then shows "Loaded"
//	GET  /links               a target=_blank link and a plain link to /links/target
//	GET  /alert               buttons for alert(), confirm(), prompt(); shows the answer
//	GET  /scroll              a tall page with "Far button" at the bottom
//	GET  /drag                two lists with HTML5 drag and drop, and a range slider
//	GET  /upload              a multiple file input that lists the chosen names
//	POST /upload              receives field "files"; lists and records them
//	GET  /hover               a menu shown on :hover and mouseenter
//	GET  /keys                an input whose key events are logged ("keydown Control+a")
//	GET  /storage             buttons that write localStorage and sessionStorage
//	GET  /status/{code}       that status (200-599) with a small page
//	GET  /big?rows=N          a table of N rows x 3 cells (default 1000, at most
//	                          50000), a nav of 20 links and a footer; for benchmarks
//	GET  /static/...          CSS and scripts
//
// Unknown paths get a 404 page.
package demo
