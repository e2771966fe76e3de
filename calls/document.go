package calls

import "context"

// Documents (issue 19): a rich-text or Markdown editor read as a person
// would (select all, copy, the clipboard's text and HTML) and written with
// the hand's keys at a place named by its words, never by setting the DOM.

// Method names of the document calls.
const (
	MethodDocRead   = "doc_read"
	MethodDocFind   = "doc_find"
	MethodDocInsert = "doc_insert"
)

// MaxDocReplace is the longest line a doc insert replaces, and the longest
// text it replaces it with, in characters: a longer rewrite is many edits
// a person checks one by one.
const MaxDocReplace = 200

// DocReadRequest reads the page's document editor.
type DocReadRequest struct {
	// Editor is the editor: a ref or a locator (css=.ql-editor); empty
	// means the focused editor, else the largest on the page.
	Editor string `json:"editor,omitempty"`
	// HTML asks for the clipboard's HTML too.
	HTML bool `json:"html,omitempty"`
}

// Doc is what an editor holds, as its own copy puts it on the clipboard.
type Doc struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// Editor names the editor read: its kind (quill, prosemirror,
	// codemirror, codemirror6, contenteditable) and where it is.
	Editor string `json:"editor"`
	// Text is the clipboard's text/plain, lines parted by "\n".
	Text string `json:"text"`
	// HTML is the clipboard's text/html (with DocReadRequest.HTML).
	HTML  string `json:"html,omitempty"`
	Lines int    `json:"lines"`
}

// DocFindRequest looks for words in the document, case-insensitively.
type DocFindRequest struct {
	Editor string `json:"editor,omitempty"`
	Text   string `json:"text"`
}

// DocFound is where the words are.
type DocFound struct {
	Editor  string     `json:"editor"`
	Matches []DocMatch `json:"matches"`
}

// DocMatch is one place of the words: the line of the read text (from
// 1), the paragraph (the count of non-empty lines up to it), the column
// (in characters, from 1) and the line around it.
type DocMatch struct {
	Line      int    `json:"line"`
	Paragraph int    `json:"paragraph"`
	Column    int    `json:"column"`
	Context   string `json:"context"`
}

// DocInsertRequest types text into the editor at one place: right after
// the words After, over the whole line Replace, or on a new line at the
// end. Exactly one of them is set. The place must be one place: words the
// document holds twice are refused with both places named.
type DocInsertRequest struct {
	Editor  string `json:"editor,omitempty"`
	Text    string `json:"text"`
	After   string `json:"after,omitempty"`
	Replace string `json:"replace,omitempty"`
	End     bool   `json:"end,omitempty"`
	// Secret names the secret Text is: it is typed as any text, but never
	// shown in the result, an error or a log.
	Secret string `json:"secret,omitempty"`
	// Hand types at a person's pace.
	Hand bool `json:"hand,omitempty"`
}

// DocInserted is what an insert did, read back from the editor.
type DocInserted struct {
	Editor string `json:"editor"`
	// Where says the place in words: `after "Dear Ann,"`, `over the line
	// "…"`, `at the end`.
	Where string `json:"where"`
	// Line is the line of the read text the inserted text starts on.
	Line int `json:"line"`
	// Text is what was typed; empty for a secret.
	Text  string `json:"text,omitempty"`
	Lines int    `json:"lines"` // of the document after the insert
}

// DocRead reads the document editor.
func (r Remote) DocRead(ctx context.Context, req DocReadRequest) (*Doc, error) {
	return remote[Doc](ctx, r, MethodDocRead, req)
}

// DocFind finds words in the document editor.
func (r Remote) DocFind(ctx context.Context, req DocFindRequest) (*DocFound, error) {
	return remote[DocFound](ctx, r, MethodDocFind, req)
}

// DocInsert types text into the document editor at one place.
func (r Remote) DocInsert(ctx context.Context, req DocInsertRequest) (*DocInserted, error) {
	return remote[DocInserted](ctx, r, MethodDocInsert, req)
}
