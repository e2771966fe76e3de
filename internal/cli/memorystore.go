package cli

import (
	"github.com/waymark-dev/waymark/memory"
	"github.com/waymark-dev/waymark/pilot"
)

// memoryStore is the notes store [memory] dir turns on, or nil when it
// is off (the default) or the config cannot be read.
func (c *Common) memoryStore() pilot.Memory {
	if d, ok := c.memoryDir(); ok {
		return d
	}
	return nil
}

func (c *Common) memoryDir() (memory.Dir, bool) {
	cfg, err := c.config()
	if err != nil {
		return memory.Dir{}, false
	}
	dir := cfg.Memory.MemoryDir()
	return memory.Dir{Path: dir}, dir != ""
}
