package cmdutil

import (
	"github.com/waymark-dev/waymark/internal/config"
)

// ModelConfig is the [model] section of the process's one reading of the
// configuration (none for a Common built by hand without one). A file that
// cannot be read gives no defaults (waymark config show and doctor report
// it).
func (c *Common) ModelConfig() config.Model {
	cfg, err := c.ReadConfig()
	if err != nil {
		return config.Model{}
	}
	return cfg.Model
}
