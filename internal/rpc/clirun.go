package rpc

// MethodCLIRun runs one CLI command inside the daemon for the thin front
// (cmd/waymark-front), so that a command costs a small process and one
// round trip rather than the start of the whole CLI. The daemon answers it
// at once, in no session's lane (the command's own calls queue in theirs).
// params: CLIRunRequest; result: CLIRunResult.
const MethodCLIRun = "cli.run"

// CLIRunRequest is what the front knows of its process: everything the CLI
// reads of the process it runs in, so that the command runs in the daemon
// as it would have run in the front.
type CLIRunRequest struct {
	// Version is the version of the waymark-full beside the front: a
	// daemon of another version declines, and waymark-full restarts it.
	// (The front sends its request with its hello, before it reads the
	// daemon's.)
	Version string   `json:"version"`
	Args    []string `json:"args"` // the command line, without the program's name
	// Env is the part of the front's environment FrontEnv keeps
	// (KEY=VALUE): waymark's settings and the variables the command line
	// names. It may hold a secret a --secret names: the daemon holds it
	// for this run only, never logs it, and reads nothing FrontEnv drops.
	Env []string `json:"env"`
	// Dir is the front's working folder, where a project's waymark.toml
	// is found; ConfigDir is its user config folder ("": none).
	Dir       string `json:"dir"`
	ConfigDir string `json:"config_dir,omitempty"`
	// Which of the front's standard streams are terminals.
	StdinTTY  bool `json:"stdin_tty,omitempty"`
	StdoutTTY bool `json:"stdout_tty,omitempty"`
	StderrTTY bool `json:"stderr_tty,omitempty"`
}

// CLIRunResult is the run's outcome, or the daemon's refusal to run it.
type CLIRunResult struct {
	// Ran is false when the daemon did not run the command (it reads the
	// front's stdin or files, it starts or configures the daemon, …):
	// nothing was done, and the front runs waymark-full in its place.
	// Reason says why, for people debugging the front.
	Ran    bool   `json:"ran"`
	Reason string `json:"reason,omitempty"`
	// What the command wrote, in the order it wrote it (so that stdout
	// and stderr sent to one terminal or file interleave as they would
	// have), and its exit status.
	Output []CLIWrite `json:"output,omitempty"`
	Exit   int        `json:"exit"`
}

// CLIWrite is what a command wrote to one stream, 1 (stdout) or 2
// (stderr), between its writes to the other.
type CLIWrite struct {
	FD   int    `json:"fd"`
	Data []byte `json:"data"`
}
