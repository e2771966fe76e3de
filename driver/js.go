package driver

import _ "embed"

// In-page functions, run only in our isolated world (world.go).
var (
	//go:embed js/actionable.js
	jsActionable string
	//go:embed js/fill_value.js
	jsFillValue string
	//go:embed js/select_options.js
	jsSelectOptions string
	//go:embed js/prepare_fill.js
	jsPrepareFill string
	//go:embed js/quiet_dom.js
	jsQuietDOM string
	//go:embed js/settled_dom.js
	jsSettledDOM string
)

var (
	//go:embed js/caret_end.js
	jsCaretToEnd string
	//go:embed js/checked_state.js
	jsCheckedState string
)

//go:embed js/identity.js
var jsIdentity string

//go:embed js/submit_probe.js
var jsSubmitProbe string

//go:embed js/overlays.js
var jsOverlays string

//go:embed js/blocked_submit.js
var jsBlockedSubmit string

//go:embed js/shown_invalid.js
var jsShownInvalid string

//go:embed js/view_graphics.js
var jsViewGraphics string
