package pilot

// Fence wraps page text in the fence a model reads page data in, so the
// page cannot close it (invariant 3): for a front that hands page text to
// an agent's model as it is, such as a document's text (waymark doc read
// over MCP).
func Fence(page string) string { return fence(page) }
