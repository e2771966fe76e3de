package cmdutil

import (
	"github.com/waymark-dev/waymark/memory"
	"github.com/waymark-dev/waymark/pilot"
)

// MemoryStore is the notes store [memory] dir turns on, or nil when it
// is off (the default) or the config cannot be read.
func (c *Common) MemoryStore() pilot.Memory {
	if d, ok := c.MemoryDir(); ok {
		return d
	}
	return nil
}

func (c *Common) MemoryDir() (memory.Dir, bool) {
	cfg, err := c.ReadConfig()
	if err != nil {
		return memory.Dir{}, false
	}
	dir := cfg.Memory.MemoryDir()
	return memory.Dir{Path: dir}, dir != ""
}
