package drift

import (
	"fmt"
	"math/rand/v2"
)

// Scenario is one app page and the control a routine was recorded on.
type Scenario struct {
	Name  string
	Title string
	Body  *El // the target's Ctl is Target
	// Renames are the target's words under a new name: the same control,
	// as a redesign would call it.
	Renames []string
	// Subs are the words of other controls that may take the target's
	// place (a different action where the target was).
	Subs []string
}

// builder makes a scenario's page from the page's random source.
type builder func(r *rand.Rand) Scenario

func targetBtn(words string) *El { return btn(words, "").C(Target) }

var builders = []builder{
	// 1. A profile settings form.
	func(r *rand.Rand) Scenario {
		name := pick(r, people...)
		return Scenario{Name: "settings-profile", Title: "Profile settings",
			Body: page("Acme", []string{"Profile", "Account", "Billing", "Notifications"},
				h(1, "Profile"),
				E("form", "class", "settings-form", "aria-label", "Profile").K(
					field("Display name", "display-name", name),
					field("Email", "email", email(name)),
					field("Bio", "bio", "Hello."),
					E("div", "class", "form-actions").K(btn("Cancel", ""), targetBtn("Save changes")),
				),
				h(2, "Connected apps"),
				cards("apps", [][2]string{{"GitHub", "Connected"}, {"Slack", "Connected"}, {"Figma", "Not connected"}}, []string{"Manage"}, "", -1, true),
			),
			Renames: []string{"Update profile"}, Subs: []string{"Reset form", "Preview profile"}}
	},
	// 2. Notification preferences: a checkbox.
	func(r *rand.Rand) Scenario {
		return Scenario{Name: "settings-notifications", Title: "Notifications",
			Body: page("Acme", []string{"Profile", "Account", "Notifications"},
				h(1, "Notifications"),
				E("fieldset", "class", "prefs").K(
					E("legend").T("Email"),
					check("Weekly digest", "n-digest", ""),
					func() *El { c := check("Product announcements", "n-news", ""); c.Kids[0].Ctl = Target; return c }(),
					check("Security alerts", "n-sec", ""),
				),
				E("div", "class", "form-actions").K(btn("Save preferences", "")),
				h(2, "Muted projects"),
				cards("muted", [][2]string{{"Website", "Muted 3 days ago"}, {"Mobile app", "Muted last week"}, {"Docs", "Muted in May"}}, []string{"Unmute"}, "", -1, true),
			),
			Renames: []string{"News and feature updates"}, Subs: []string{"Marketing emails", "Comment replies"}}
	},
	// 3. Checkout: place the order.
	func(r *rand.Rand) Scenario {
		items := draw(r, 3, products...)
		var rows [][]string
		for i, it := range items {
			rows = append(rows, []string{it, fmt.Sprint(1 + i%2), fmt.Sprintf("$%d.00", 12+r.IntN(80))})
		}
		return Scenario{Name: "checkout-review", Title: "Checkout",
			Body: page("Shopfront", []string{"Shop", "Cart", "Orders"},
				h(1, "Review your order"),
				table("Your cart", []string{"Item", "Qty", "Price"}, rows, []string{"Remove"}, "", -1),
				field("Discount code", "coupon", ""),
				btn("Apply code", ""),
				E("section", "class", "summary", "aria-label", "Order summary").K(p("Total: $94.00"), targetBtn("Place order"), link("Continue shopping", "")),
			),
			Renames: []string{"Complete purchase"}, Subs: []string{"Save for later", "Edit cart"}}
	},
	// 4. Checkout shipping: continue to payment.
	func(r *rand.Rand) Scenario {
		return Scenario{Name: "checkout-shipping", Title: "Shipping",
			Body: page("Shopfront", []string{"Shop", "Cart", "Orders"},
				h(1, "Shipping"),
				field("Street", "street", "12 High St"),
				field("City", "city", pick(r, "Leeds", "Lyon", "Porto", "Graz")),
				E("ul", "class", "rates").K(
					E("li").K(check("Standard (3–5 days)", "rate-std", "")),
					E("li").K(check("Express (1 day)", "rate-exp", "")),
				),
				E("div", "class", "step-actions").K(link("Back to cart", ""), targetBtn("Continue to payment")),
			),
			Renames: []string{"Proceed to payment"}, Subs: []string{"Calculate shipping", "Change address"}}
	},
	// 5. Users table: delete one user.
	func(r *rand.Rand) Scenario {
		ps := draw(r, 5, people...)
		var rows [][]string
		for _, n := range ps {
			rows = append(rows, []string{n, email(n), pick(r, "Admin", "Member", "Viewer")})
		}
		t := ps[1+r.IntN(3)]
		return Scenario{Name: "users-table", Title: "Users",
			Body: page("Admin", []string{"Users", "Teams", "Audit log"},
				h(1, "Users"), toolbar("Users", "Invite user", "Export CSV"),
				table("Team members", []string{"Name", "Email", "Role"}, rows, []string{"Edit", "Delete"}, t, 1)),
			Renames: []string{"Remove"}, Subs: []string{"Suspend", "Transfer"}}
	},
	// 6. Orders table: refund one order.
	func(r *rand.Rand) Scenario {
		var rows [][]string
		base := 1040 + r.IntN(50)
		for i := range 5 {
			rows = append(rows, []string{fmt.Sprintf("#%d", base+i), pick(r, people...), fmt.Sprintf("$%d.00", 20+r.IntN(200)), pick(r, "Paid", "Shipped")})
		}
		t := rows[2+r.IntN(2)][0]
		return Scenario{Name: "orders-table", Title: "Orders",
			Body: page("Shop admin", []string{"Orders", "Products", "Customers"},
				h(1, "Orders"), field("Search orders", "q", ""),
				table("Recent orders", []string{"Order", "Customer", "Total", "Status"}, rows, []string{"View", "Refund"}, t, 1)),
			Renames: []string{"Issue refund"}, Subs: []string{"Cancel order", "Resend receipt"}}
	},
	// 7. Invoices in a web component's shadow root: download one.
	func(r *rand.Rand) Scenario {
		var rows [][]string
		for i := range 4 {
			rows = append(rows, []string{fmt.Sprintf("INV-%d", 300+i*7+r.IntN(5)), pick(r, "March", "April", "May", "June"), fmt.Sprintf("$%d.00", 49+i*10)})
		}
		t := rows[1+r.IntN(2)][0]
		host := E("invoice-list", "class", "widget")
		host.Shadow = true
		host.K(table("Invoices", []string{"Invoice", "Month", "Amount"}, rows, []string{"Download"}, t, 0))
		return Scenario{Name: "invoices-shadow", Title: "Billing",
			Body:    page("Acme", []string{"Profile", "Billing"}, h(1, "Billing"), p("Plan: Team, billed monthly."), btn("Change plan", ""), host),
			Renames: []string{"Get PDF"}, Subs: []string{"Pay now", "Dispute"}}
	},
	// 8. A wizard's second step: next.
	func(r *rand.Rand) Scenario {
		steps := E("ol", "class", "stepper", "aria-label", "Progress")
		for i, s := range []string{"Account", "Workspace", "Invite", "Done"} {
			li := E("li").T(s)
			if i == 1 {
				li.Set("aria-current", "step")
			}
			steps.K(li)
		}
		return Scenario{Name: "wizard-workspace", Title: "Set up your workspace",
			Body: page("Onboard", []string{"Help"}, steps, h(1, "Name your workspace"),
				field("Workspace name", "ws", pick(r, "Northwind", "Globex", "Initech")),
				field("URL", "slug", "northwind"),
				E("div", "class", "wizard-actions").K(btn("Back", ""), link("Skip for now", ""), targetBtn("Next"))),
			Renames: []string{"Continue"}, Subs: []string{"Save draft", "Start over"}}
	},
	// 9. A wizard's last step: finish.
	func(r *rand.Rand) Scenario {
		return Scenario{Name: "wizard-finish", Title: "Almost done",
			Body: page("Onboard", []string{"Help"}, h(1, "Invite your team"),
				cards("invites", [][2]string{{pick(r, people...), "Pending"}, {"ops@example.org", "Pending"}}, []string{"Resend"}, "", -1, true),
				field("Email address", "invite", ""), btn("Add", ""),
				E("div", "class", "wizard-actions").K(btn("Back", ""), targetBtn("Finish setup"))),
			Renames: []string{"Go to dashboard"}, Subs: []string{"Invite more people", "Skip invites"}}
	},
	// 10. A confirm dialog over a project page: delete.
	func(r *rand.Rand) Scenario {
		proj := pick(r, "Apollo", "Zephyr", "Orion", "Nimbus")
		dlg := E("dialog", "open", "", "aria-labelledby", "dlg-title", "class", "modal").K(
			E("h2", "id", "dlg-title").T("Delete "+proj+"?"),
			p("This cannot be undone."),
			E("div", "class", "modal-actions").K(btn("Keep project", ""), targetBtn("Delete project")))
		return Scenario{Name: "dialog-delete", Title: proj,
			Body:    page("Projects", []string{"Projects", "Settings"}, h(1, proj), toolbar("Project", "Rename", "Archive", "Duplicate"), p("Last deployed 2 hours ago."), dlg),
			Renames: []string{"Yes, delete"}, Subs: []string{"Archive instead", "Export first"}}
	},
	// 11. A share dialog: copy the link.
	func(r *rand.Rand) Scenario {
		two := draw(r, 2, people...)
		dlg := E("div", "role", "dialog", "aria-label", "Share document", "class", "sheet").K(
			h(2, "Share"), field("Add people", "share-to", ""),
			cards("access", [][2]string{{two[0], "Editor"}, {two[1], "Viewer"}}, []string{"Change"}, "", -1, true),
			E("div", "class", "sheet-actions").K(targetBtn("Copy link"), btn("Done", "")))
		return Scenario{Name: "dialog-share", Title: "Q3 plan",
			Body:    page("Docs", []string{"Recent", "Shared", "Trash"}, h(1, "Q3 plan"), toolbar("Document", "Share", "Print"), dlg),
			Renames: []string{"Copy share link"}, Subs: []string{"Email link", "Embed"}}
	},
	// 12. A payment form in an iframe: pay.
	func(r *rand.Rand) Scenario {
		amount := fmt.Sprintf("$%d.00", 20+r.IntN(80))
		fr := E("iframe", "title", "Secure payment", "class", "pay-frame", "style", "width:420px;height:260px;border:1px solid #ccc")
		fr.Frame = true
		fr.K(E("form", "class", "pay").K(field("Card number", "cc", ""), field("Expiry", "exp", ""), targetBtn("Pay "+amount), link("Use another method", "")))
		return Scenario{Name: "iframe-payment", Title: "Pay",
			Body:    page("Shopfront", []string{"Cart"}, h(1, "Payment"), p("Total "+amount), fr, btn("Back to shipping", "")),
			Renames: []string{"Confirm payment"}, Subs: []string{"Save card", "Apply gift card"}}
	},
	// 13. A comments widget in an iframe: post.
	func(r *rand.Rand) Scenario {
		fr := E("iframe", "title", "Comments", "class", "comments-frame", "style", "width:520px;height:300px")
		fr.Frame = true
		fr.K(h(2, "3 comments"),
			cards("comments", [][2]string{{pick(r, people...), "Great write-up."}, {"guest", "Thanks!"}}, []string{"Reply", "Report"}, "", -1, true),
			E("label", "for", "c").T("Your comment"), E("textarea", "id", "c"),
			E("div").K(btn("Preview", ""), targetBtn("Post comment")))
		return Scenario{Name: "iframe-comments", Title: "Blog post",
			Body:    page("Blog", []string{"Home", "Archive"}, h(1, "Shipping faster"), p("A post about deploys."), fr),
			Renames: []string{"Publish comment"}, Subs: []string{"Attach image", "Cancel"}}
	},
	// 14. A cookie banner in a shadow root: accept.
	func(r *rand.Rand) Scenario {
		host := E("cookie-consent", "class", "consent")
		host.Shadow = true
		host.K(E("div", "role", "region", "aria-label", "Cookie consent").K(
			p("We use cookies to improve the site."),
			E("div", "class", "consent-actions").K(btn("Reject all", ""), btn("Preferences", ""), targetBtn("Accept all"))))
		return Scenario{Name: "shadow-consent", Title: "News",
			Body:    page("Daily", []string{"World", "Tech", "Sport"}, h(1, "Top stories"), cards("stories", [][2]string{{"Markets rally", "2 min read"}, {"New rail line", "4 min read"}}, []string{"Save"}, "", -1, false), host),
			Renames: []string{"Allow all cookies"}, Subs: []string{"Necessary only", "Learn more"}}
	},
	// 15. Product cards laid flat: add one to the cart.
	func(r *rand.Rand) Scenario {
		ps := draw(r, 5, products...)
		var items [][2]string
		for _, pr := range ps {
			items = append(items, [2]string{pr, fmt.Sprintf("$%d.00", 9+r.IntN(90))})
		}
		t := ps[1+r.IntN(3)]
		return Scenario{Name: "product-cards", Title: "Shop",
			Body:    page("Shopfront", []string{"New", "Sale", "Cart"}, h(1, "Popular"), cards("grid", items, []string{"Add to cart", "Wishlist"}, t, 0, false)),
			Renames: []string{"Add to bag"}, Subs: []string{"Notify me", "Compare"}}
	},
	// 16. A kanban board: archive one card.
	func(r *rand.Rand) Scenario {
		tasks := draw(r, 6, "Fix login bug", "Update docs", "Review PR 88", "Plan sprint", "Write tests", "Migrate DB", "Design icons", "Rotate keys")
		col := func(name string, ts []string, target string) *El {
			var items [][2]string
			for _, t := range ts {
				items = append(items, [2]string{t, pick(r, "Due Mon", "Due Fri", "No date")})
			}
			return E("section", "class", "column", "aria-label", name).K(h(2, name), cards("col-cards", items, []string{"Open", "Archive"}, target, 1, true))
		}
		t := tasks[3+r.IntN(2)]
		board := E("div", "class", "board").K(col("To do", tasks[:3], ""), col("In progress", tasks[3:], t))
		return Scenario{Name: "kanban-board", Title: "Sprint 14",
			Body:    page("Boards", []string{"Boards", "Members"}, h(1, "Sprint 14"), board),
			Renames: []string{"Move to archive"}, Subs: []string{"Duplicate", "Assign"}}
	},
	// 17. An inbox: mark one message read.
	func(r *rand.Rand) Scenario {
		var items [][2]string
		for _, n := range draw(r, 5, people...) {
			items = append(items, [2]string{n, pick(r, "Invoice attached", "Lunch Friday?", "Re: roadmap", "Your build failed")})
		}
		t := items[1+r.IntN(3)][0]
		return Scenario{Name: "inbox-list", Title: "Inbox",
			Body:    page("Mail", []string{"Inbox", "Sent", "Archive"}, h(1, "Inbox"), toolbar("Mailbox", "Compose", "Refresh"), cards("messages", items, []string{"Mark as read", "Snooze"}, t, 0, true)),
			Renames: []string{"Mark read"}, Subs: []string{"Flag", "Move to spam"}}
	},
	// 18. A dashboard toolbar: export.
	func(r *rand.Rand) Scenario {
		tb := toolbar("Report", "Refresh", "Share", "Schedule")
		tb.Kids = append(tb.Kids[:1], append([]*El{targetBtn("Export")}, tb.Kids[1:]...)...)
		return Scenario{Name: "dashboard-export", Title: "Revenue",
			Body: page("Metrics", []string{"Dashboards", "Reports", "Alerts"}, h(1, "Revenue"), tb,
				cards("kpis", [][2]string{{"MRR", "$48k"}, {"Churn", "2.1%"}, {"New accounts", "312"}}, []string{"Details"}, "", -1, false)),
			Renames: []string{"Download report"}, Subs: []string{"Print", "Embed chart"}}
	},
	// 19. Search filters: apply.
	func(r *rand.Rand) Scenario {
		side := E("aside", "class", "filters", "aria-label", "Filters").K(
			h(2, "Filters"), check("In stock", "f-stock", ""), check("Free shipping", "f-ship", ""), field("Max price", "f-max", "100"),
			E("div").K(btn("Clear", ""), targetBtn("Apply filters")))
		return Scenario{Name: "search-filters", Title: "Search",
			Body:    page("Shopfront", []string{"Shop", "Cart"}, h(1, "Results for lamp"), side, cards("results", [][2]string{{"Desk lamp", "$39"}, {"Floor lamp", "$89"}}, []string{"View"}, "", -1, false)),
			Renames: []string{"Show results"}, Subs: []string{"Save search", "Reset filters"}}
	},
	// 20. Account security: revoke one device.
	func(r *rand.Rand) Scenario {
		devs := draw(r, 4, "Firefox on Ubuntu", "Safari on iPhone", "Chrome on Windows", "Edge on Surface", "App on Pixel 8")
		var rows [][]string
		for _, d := range devs {
			rows = append(rows, []string{d, pick(r, "Berlin", "Oslo", "Madrid"), pick(r, "Today", "Yesterday", "3 days ago")})
		}
		t := devs[1+r.IntN(2)]
		return Scenario{Name: "security-devices", Title: "Security",
			Body: page("Acme", []string{"Profile", "Security"}, h(1, "Security"), btn("Enable two-factor", ""),
				h(2, "Devices"), table("Active devices", []string{"Device", "Place", "Last seen"}, rows, []string{"Revoke"}, t, 0)),
			Renames: []string{"End session"}, Subs: []string{"Rename device", "Trust device"}}
	},
	// 21. Pricing: choose a plan.
	func(r *rand.Rand) Scenario {
		plans := [][2]string{{"Free", "$0"}, {"Pro", "$12 a month"}, {"Team", "$30 a month"}, {"Enterprise", "Talk to us"}}
		t := plans[1+r.IntN(2)][0]
		return Scenario{Name: "pricing-plans", Title: "Pricing",
			Body:    page("Acme", []string{"Product", "Pricing", "Docs"}, h(1, "Pricing"), cards("plans", plans, []string{"Choose plan"}, t, 0, false)),
			Renames: []string{"Select plan"}, Subs: []string{"Contact sales", "Start trial"}}
	},
	// 22. A file manager: rename one file.
	func(r *rand.Rand) Scenario {
		fs := draw(r, 5, files...)
		var rows [][]string
		for _, f := range fs {
			rows = append(rows, []string{f, fmt.Sprintf("%d KB", 10+r.IntN(900))})
		}
		t := fs[1+r.IntN(3)]
		return Scenario{Name: "file-manager", Title: "Files",
			Body:    page("Drive", []string{"My files", "Shared", "Trash"}, h(1, "My files"), toolbar("Files", "Upload", "New folder"), table("Files", []string{"Name", "Size"}, rows, []string{"Share", "Rename", "Move"}, t, 1)),
			Renames: []string{"Change name"}, Subs: []string{"Copy", "Make available offline"}}
	},
}
