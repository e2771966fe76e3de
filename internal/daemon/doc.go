// Package daemon is waymark's resident server: one a user, listening on a
// Unix socket in a private folder, holding the browser between commands.
//
// [Server] speaks the line protocol of package rpc. It answers
// daemon.status and daemon.stop itself and passes every other method to a
// [Handler] (the session manager). Requests of one session run one at a time
// in arrival order; different sessions run concurrently; a client that hangs
// up cancels its requests. [Main] runs a Server for the hidden
// "waymark daemon" command.
//
// [Paths] says where the socket, the start lock and the log live; package
// client dials there and starts a daemon when none answers.
package daemon
