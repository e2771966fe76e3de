package cmdutil

import (
	"fmt"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
)

// The error codes of the JSON envelope and the exit status each gives,
// in one place: [ExitCode] reads codeExits, and docs/json.md's table of
// codes is written from [codeTable] (TestJSONDocCodes fails when they
// disagree; `go test ./internal/cli/cmdutil -run TestJSONDocCodes -update`
// writes it again). The codes of the session's categories are calls';
// these are the CLI's own. A code a command sends that is in neither
// fails TestEveryCodeInTheTable.
const (
	codeUsage            = "usage"
	codeBadConfig        = "bad_config"
	CodeDaemonSettings   = "daemon_settings"
	codeModelUnavailable = "model_unavailable"
	codeModelAnswer      = "model_answer"
	codeModelCannot      = "model_cannot"
	codeBotCheck         = "bot_check"
	codeBudgetSpent      = "budget_spent"
	codeTaskFailed       = "task_failed"
	CodeTestFailed       = "test_failed"
	CodeDoctorFailed     = "doctor_failed"
	CodeBatchIncomplete  = "batch_incomplete"
)

// cliCodes are the CLI's own codes, in the order the table lists them.
var cliCodes = []string{codeBotCheck, codeTaskFailed, codeBudgetSpent, codeModelAnswer, codeModelCannot, CodeTestFailed, CodeDoctorFailed,
	CodeBatchIncomplete, codeUsage, codeBadConfig, CodeDaemonSettings, codeModelUnavailable}

// codeExits are the exit statuses of the codes that do not exit 1
// ([ExitFailed]: what failed on the page).
var codeExits = map[string]int{
	codeUsage: ExitUsage, "bad_input": ExitUsage, codeBadConfig: ExitUsage, "needs_model": ExitUsage,
	"unavailable": ExitUnavailable, "browser_gone": ExitUnavailable, codeModelUnavailable: ExitUnavailable, CodeDaemonSettings: ExitUnavailable,
	"canceled": ExitCanceled,
}

// exitOf is the exit status of an error of code.
func exitOf(code string) int {
	if n, ok := codeExits[code]; ok {
		return n
	}
	return ExitFailed
}

// codeRow is a row of the table: the exit statuses, the codes that give
// them, and what happened.
type codeRow struct {
	exits string
	codes []string
	what  string
}

// codeTable is the table of codes and exit statuses docs/json.md shows:
// the codes of the session's categories (calls.Codes), the CLI's own,
// replay's causes and drift's reports, each under its exit status.
func codeTable() []codeRow {
	rows := []codeRow{
		{exits: "0", what: "it worked"},
		{exits: "1", what: "what failed on the page (doctor: a check failed; batch: a row did not pass)"},
		{exits: "2", what: "what you gave: a flag or argument, a URL that cannot be parsed, a routine, plan, schema or state file missing or malformed, the configuration (a file with open permissions, an unknown key), no model for a command that needs one"},
		{exits: "3", what: "what waymark runs on: the browser, the daemon, the model server (a 5xx, unreachable, rate limited)"},
		{exits: "10–18", what: "`replay` stopped, for this cause (`waymark replay --help`)"},
		{exits: "20, 21", what: "`drift`'s report (`waymark drift --help`)"},
		{exits: "130", what: "interrupted"},
	}
	row := func(exit int) *codeRow {
		key := fmt.Sprint(exit)
		switch {
		case exit >= 10 && exit <= 18:
			key = "10–18"
		case exit == DriftExitMoved || exit == DriftExitBroken:
			key = "20, 21"
		}
		for i := range rows {
			if rows[i].exits == key {
				return &rows[i]
			}
		}
		panic(fmt.Sprintf("cli: exit %d has no row in the table of codes", exit))
	}
	put := func(code string, exit int) {
		r := row(exit)
		if !slices.Contains(r.codes, code) {
			r.codes = append(r.codes, code)
		}
	}
	for _, c := range append(calls.Codes(), cliCodes...) {
		put(c, exitOf(c))
	}
	causes := make([]replay.Cause, 0, len(replayExits))
	for c := range replayExits {
		if c != replay.CauseNone {
			causes = append(causes, c)
		}
	}
	slices.SortFunc(causes, func(a, b replay.Cause) int { return replayExits[a] - replayExits[b] })
	for _, c := range causes {
		put(CauseCode(c), ReplayExit(c))
	}
	put(DriftCode(DriftExitMoved), DriftExitMoved)
	put(DriftCode(DriftExitBroken), DriftExitBroken)
	return rows
}

// codeTableMarkdown is codeTable as docs/json.md holds it.
func codeTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| exit | codes | what happened |\n| --- | --- | --- |\n")
	for _, r := range codeTable() {
		codes := "—"
		if len(r.codes) > 0 {
			codes = "`" + strings.Join(r.codes, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.exits, codes, r.what)
	}
	return b.String()
}

// DriftCode is the error code of a drift report that is not clean.
func DriftCode(code int) string {
	if code == DriftExitMoved {
		return "drift_moved"
	}
	return "drift_broken"
}

// CauseCode is a replay cause as an error code of the output contract,
// which are snake_case: landed-elsewhere is landed_elsewhere.
func CauseCode(c replay.Cause) string { return strings.ReplaceAll(string(c), "-", "_") }
