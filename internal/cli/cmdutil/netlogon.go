package cmdutil

// NetLogOn reports whether the configuration has the daemon's browser
// write a NetLog that replay and test read at a failure. A configuration
// that cannot be read has none.
func (c *Common) NetLogOn() bool {
	if c.Config == nil {
		return false
	}
	cfg, err := c.Config()
	return err == nil && cfg.Evidence.NetLogOn()
}
