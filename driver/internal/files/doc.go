// Package files holds the files a session exchanges with the disk: the
// downloads its pages start (a watcher per browser context that names,
// limits and reports them) and the uploads an action sends (the folders
// they may come from).
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. The core hands it what it needs as values in
// [Config] (the session's browser context, how to tell its frames, the
// limits), keeps the public options (driver.DownloadOptions) and marks the
// downloads an action started ([Downloads.Mark], [Downloads.Collect]).
package files
