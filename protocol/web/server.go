//go:build !js

// server.go: the HTTP server of the page and its WebSocket transport (not
// in the js/wasm build, where the page talks to a Web Worker instead).

package web

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/coder/websocket"
)

//go:embed static
var static embed.FS

// MaxMessageBytes bounds one WebSocket message from the page (a pasted PDN
// game is the largest); a longer one closes the connection.
const MaxMessageBytes = 1 << 20

// Server serves the page and its WebSocket.
type Server struct {
	cfg      Config
	mux      *http.ServeMux
	sessions sync.WaitGroup
	ctx      context.Context // ends every session at Close
	cancel   context.CancelFunc
}

// New returns a server of cfg.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, mux: http.NewServeMux()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded folder exists: a build error otherwise
	}
	s.mux.Handle("/", http.FileServer(http.FS(sub)))
	s.mux.HandleFunc("/ws", s.serveWS)
	return s
}

// ServeHTTP serves the page (/) and the WebSocket (/ws).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Loopback && !loopbackHost(r.Host) {
		http.Error(w, fmt.Sprintf("damka gui: host %q is not this machine's loopback address: refused", r.Host), http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'")
	s.mux.ServeHTTP(w, r)
}

// Close ends every page's session (its search stopped, its engines
// closed) and waits for them; call it after the HTTP server's Shutdown,
// which leaves WebSocket connections alone.
func (s *Server) Close() {
	s.cancel()
	s.sessions.Wait()
}

// loopbackHost reports whether host (a Host header: name or address, with
// or without a port) names this machine's loopback interface.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = strings.Trim(host, "[]")
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// originError returns why the WebSocket request r does not come from the
// server's own page, or "" when it does: its Origin must be this server
// (same scheme-less host and port as the request's Host).
func originError(r *http.Request) string {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return "damka gui: WebSocket request without an Origin header: refused (only damka's own page may connect)"
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("damka gui: WebSocket Origin %q is not a URL: refused", origin)
	}
	if !strings.EqualFold(u.Host, r.Host) || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Sprintf("damka gui: WebSocket Origin %q is not this page's (http://%s): refused", origin, r.Host)
	}
	return ""
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if msg := originError(r); msg != "" {
		s.cfg.Log.Warn().Str("origin", r.Header.Get("Origin")).Str("remote", r.RemoteAddr).Msg("websocket refused")
		http.Error(w, msg, http.StatusForbidden)
		return
	}
	if s.cfg.NewPlayer == nil {
		http.Error(w, "damka gui: no player", http.StatusInternalServerError)
		return
	}
	p, err := s.cfg.NewPlayer()
	if err != nil {
		http.Error(w, "damka gui: "+err.Error(), http.StatusInternalServerError)
		return
	}
	// The Origin was checked above, against the request's own Host.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.cfg.Log.Warn().Err(err).Msg("websocket accept")
		return
	}
	conn.SetReadLimit(MaxMessageBytes)
	s.sessions.Add(1)
	defer s.sessions.Done()
	s.cfg.Log.Info().Str("remote", r.RemoteAddr).Msg("page connected")
	ctx, cancel := context.WithCancel(r.Context())
	defer context.AfterFunc(s.ctx, cancel)()
	Serve(ctx, s.cfg, wsTransport{conn}, p)
	cancel()
	s.cfg.Log.Info().Str("remote", r.RemoteAddr).Msg("page gone")
}

// wsTransport is the Transport of a page's WebSocket connection.
type wsTransport struct{ c *websocket.Conn }

func (w wsTransport) Read(ctx context.Context) ([]byte, error) {
	typ, data, err := w.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageText {
		return nil, ErrNotText
	}
	return data, nil
}

func (w wsTransport) Write(ctx context.Context, msg []byte) error {
	return w.c.Write(ctx, websocket.MessageText, msg)
}

func (w wsTransport) Close() error { return w.c.CloseNow() }
