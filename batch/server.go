package batch

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/waymark-dev/waymark/calls"
)

// ServerOptions configure an embedded NATS server with JetStream.
type ServerOptions struct {
	// Dir holds JetStream's file store (the state folder's batch/ folder).
	Dir string
	// Listen is a loopback address ("127.0.0.1:4222", port 0 for any) for
	// workers in other processes; empty means in-process connections only.
	Listen string
	// Name names the server; empty means "waymark".
	Name string
	// Cluster, when set, makes the server one node of a cluster on
	// loopback (tests and one-machine setups; a real cluster is run as
	// nats-server and named with [batch] nats).
	Cluster *ClusterOptions
}

// ClusterOptions make an embedded server a node of a cluster.
type ClusterOptions struct {
	Name   string   // the cluster's name, the same on every node
	Listen string   // this node's route address, loopback
	Routes []string // the other nodes' route addresses ("127.0.0.1:6222")
}

// Server is an embedded NATS server.
type Server struct {
	ns     *server.Server
	unlock func() // lets go of the store folder
}

// StartServer starts an embedded NATS server with JetStream and waits until
// it takes connections. It holds the store folder while it runs: a second
// server on the same folder waits (up to 30 s) for the first to shut down. It refuses an address off loopback: the embedded
// server has no authentication, so only this machine may reach it.
func StartServer(opts ServerOptions) (*Server, error) {
	if opts.Dir == "" {
		return nil, calls.Errorf(calls.ErrBadInput, "", "the batch server needs a folder for its store")
	}
	so := &server.Options{
		ServerName: cmpOr(opts.Name, "waymark"),
		JetStream:  true,
		StoreDir:   opts.Dir,
		NoLog:      true,
		NoSigs:     true,
		DontListen: opts.Listen == "",
	}
	if opts.Listen != "" {
		host, port, err := loopback(opts.Listen)
		if err != nil {
			return nil, err
		}
		so.Host, so.Port = host, port
	}
	if c := opts.Cluster; c != nil {
		host, port, err := loopback(c.Listen)
		if err != nil {
			return nil, err
		}
		so.Cluster = server.ClusterOpts{Name: c.Name, Host: host, Port: port}
		for _, r := range c.Routes {
			u, err := url.Parse("nats-route://" + r)
			if err != nil {
				return nil, fmt.Errorf("route %q: %w", r, err)
			}
			so.Routes = append(so.Routes, u)
		}
	}
	unlock, err := lockDir(opts.Dir, 30*time.Second)
	if err != nil {
		return nil, err
	}
	ns, err := server.NewServer(so)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("start the batch server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		unlock()
		return nil, calls.Errorf(calls.ErrUnavailable, "look at the daemon log", "the batch server did not start")
	}
	return &Server{ns: ns, unlock: unlock}, nil
}

// loopback splits a loopback address; port 0 means any free port.
func loopback(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, calls.Errorf(calls.ErrBadInput, "write host:port, e.g. 127.0.0.1:4222", "bad address %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", 0, calls.Errorf(calls.ErrBadInput, "the embedded server listens on loopback only; for many machines run a NATS cluster and set [batch] nats",
			"%q is not a loopback address", addr)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, calls.Errorf(calls.ErrBadInput, "", "bad port in %q", addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Connect opens an in-process connection: no socket at all.
func (s *Server) Connect(opts ...nats.Option) (*nats.Conn, error) {
	return nats.Connect("", append([]nats.Option{nats.InProcessServer(s.ns), nats.Name("waymark")}, opts...)...)
}

// ClientURL is the nats:// URL of the loopback listener, or "" with none.
func (s *Server) ClientURL() string {
	if s.ns.Addr() == nil {
		return ""
	}
	return s.ns.ClientURL()
}

// ClusterAddr is the route address of a cluster node, or "".
func (s *Server) ClusterAddr() string {
	if a := s.ns.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

// Shutdown stops the server and waits until it has.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	s.unlock()
}
