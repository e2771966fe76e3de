// Package capture holds a session's network as a file a person can keep:
// the documents, XHR and fetch requests of a page and its frames, who sent
// each, the JSON and text they returned, and the frames of its WebSockets
// and event streams, with every secret replaced by a marker.
//
// A [File] is what `waymark capture stop FILE` writes (format
// "waymark.capture/1"). A marker («redacted:KIND:HASH», see [Marker]) is
// a keyed hash of the value: the same token gives the same marker
// everywhere in one capture, so `waymark api learn` can see that the
// bearer token a request sent is the value the page keeps in local
// storage ([File.State]) without either being readable. The key is drawn
// for each capture and never saved.
//
// API maturity: new in this release; fields may grow.
package capture
