package root

import (
	"sync"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/cli/cmd/act"
	"github.com/waymark-dev/waymark/internal/cli/cmd/api"
	"github.com/waymark-dev/waymark/internal/cli/cmd/batch"
	configcmd "github.com/waymark-dev/waymark/internal/cli/cmd/config"
	"github.com/waymark-dev/waymark/internal/cli/cmd/demo"
	"github.com/waymark-dev/waymark/internal/cli/cmd/doc"
	"github.com/waymark-dev/waymark/internal/cli/cmd/doctor"
	"github.com/waymark-dev/waymark/internal/cli/cmd/drift"
	"github.com/waymark-dev/waymark/internal/cli/cmd/form"
	"github.com/waymark-dev/waymark/internal/cli/cmd/look"
	"github.com/waymark-dev/waymark/internal/cli/cmd/mcp"
	"github.com/waymark-dev/waymark/internal/cli/cmd/memory"
	"github.com/waymark-dev/waymark/internal/cli/cmd/nav"
	"github.com/waymark-dev/waymark/internal/cli/cmd/netlog"
	"github.com/waymark-dev/waymark/internal/cli/cmd/page"
	"github.com/waymark-dev/waymark/internal/cli/cmd/pilot"
	"github.com/waymark-dev/waymark/internal/cli/cmd/record"
	"github.com/waymark-dev/waymark/internal/cli/cmd/replay"
	"github.com/waymark-dev/waymark/internal/cli/cmd/routine"
	"github.com/waymark-dev/waymark/internal/cli/cmd/session"
	"github.com/waymark-dev/waymark/internal/cli/cmd/sheet"
	"github.com/waymark-dev/waymark/internal/cli/cmd/test"
	"github.com/waymark-dev/waymark/internal/cli/cmd/trace"
	versioncmd "github.com/waymark-dev/waymark/internal/cli/cmd/version"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

// maker builds one top-level command for the factory.
type maker func(f *cmdutil.Factory) *cobra.Command

// mk is the maker of a NewCmdX(f, runF) constructor, with no runF.
func mk[R any](newCmd func(*cmdutil.Factory, R) *cobra.Command) maker {
	return func(f *cmdutil.Factory) *cobra.Command {
		var none R
		return newCmd(f, none)
	}
}

// groups order the help the way an agent works: go, look, act, read.
var groups = []struct {
	id, title string
	cmds      []maker
}{
	{"nav", "Navigate:", []maker{mk(nav.NewCmdOpen), mk(nav.NewCmdBack), mk(nav.NewCmdForward), mk(nav.NewCmdReload), mk(nav.NewCmdTab)}},
	{"look", "Look and read:", []maker{mk(look.NewCmdSnapshot), mk(look.NewCmdGet), mk(look.NewCmdWait), mk(look.NewCmdEval), mk(look.NewCmdScreenshot), mk(look.NewCmdPDF), mk(look.NewCmdLocate), mk(look.NewCmdFind), mk(look.NewCmdConsole), mk(look.NewCmdNetwork), mk(look.NewCmdCapture), mk(look.NewCmdSitemap)}},
	{"pilot", "Say what you want (a model picks the element):", []maker{mk(pilot.NewCmdAct), mk(pilot.NewCmdObserve), mk(pilot.NewCmdExtract), mk(pilot.NewCmdRun)}},
	{"routine", "Routines (replay with no model):", []maker{mk(record.NewCmdRecord), mk(replay.NewCmdReplay), mk(routine.NewCmdRoutine), mk(drift.NewCmdDrift), mk(batch.NewCmdBatch), mk(batch.NewCmdWorker), mk(trace.NewCmdTrace),
		func(f *cmdutil.Factory) *cobra.Command { return api.NewCmdAPI(f, nil, nil) }, mk(memory.NewCmdMemory)}},
	{"act", "Act on elements:", []maker{
		mk(act.NewCmdClick), mk(act.NewCmdDblClick), mk(act.NewCmdHover), mk(act.NewCmdFocus),
		mk(act.NewCmdFill), mk(act.NewCmdType), mk(act.NewCmdPress), mk(act.NewCmdSelect),
		mk(act.NewCmdCheck), mk(act.NewCmdUncheck), mk(act.NewCmdScroll), mk(act.NewCmdUpload), mk(act.NewCmdDrag), mk(act.NewCmdClickAt),
		mk(page.NewCmdDialog), mk(form.NewCmdForm), mk(sheet.NewCmdSheet), mk(act.NewCmdTool), mk(doc.NewCmdDoc),
	}},
	{"page", "Page and session state:", []maker{mk(page.NewCmdCookies), mk(page.NewCmdStorage), mk(page.NewCmdState), mk(page.NewCmdViewport), mk(page.NewCmdDownloads)}},
	{"daemon", "Sessions and the daemon:", []maker{mk(session.NewCmdSession), mk(session.NewCmdClose), mk(session.NewCmdDaemon)}},
	{"more", "More:", []maker{mk(configcmd.NewCmdConfig), mk(doctor.NewCmdDoctor), mk(test.NewCmdTest), mk(netlog.NewCmdNetlog), mk(demo.NewCmdDemo), mk(mcp.NewCmdMCP), mk(versioncmd.NewCmdVersion)}},
}

// commandAt is where each top-level command's maker is in groups, by the
// command's name: learnt once from the makers themselves, so that no name
// is written twice.
var commandAt = sync.OnceValue(func() map[string][2]int {
	streams, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IO: streams}
	at := map[string][2]int{}
	for gi, g := range groups {
		for i, m := range g.cmds {
			at[m(f).Name()] = [2]int{gi, i}
		}
	}
	return at
})
