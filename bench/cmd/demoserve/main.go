// Command demoserve serves waymark's demo shop (internal/demo) on loopback
// for bench/flow.sh. It prints its base URL (http://127.0.0.1:PORT) on
// stdout and serves until killed.
//
// It is a separate program, not `waymark demo serve`, so the pages stay the
// same when WAYMARK_BIN points at another build of waymark.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/waymark-dev/waymark/internal/demo"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback only)")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		log.Fatalf("demoserve: bad -addr %q: %v", *addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		log.Fatalf("demoserve: -addr %q is not a loopback address", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("demoserve: %v", err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	srv := &http.Server{Handler: demo.New(nil), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
