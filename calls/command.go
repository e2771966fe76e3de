package calls

// Cmd is a waymark command as a hint names it, in one form everywhere:
// `waymark snapshot -i`, in backquotes, so that an agent sees where the
// command ends and JSON carries it unescaped. words is the command after
// "waymark". The MCP server says the same with its tools' names
// (internal/mcp's hint.go reads this form); TestHintsNameCommandsOneWay
// fails for a hint that writes a command by hand.
func Cmd(words string) string {
	return "`waymark " + words + "`"
}
