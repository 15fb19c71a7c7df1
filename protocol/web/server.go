//go:build !js

// server.go: the HTTP server of the page and its WebSocket transport (not
// in the js/wasm build, where the page talks to a Web Worker instead).

package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"

	"github.com/coder/websocket"
)

//go:embed static
var static embed.FS

// Server serves the page and its WebSocket.
type Server struct {
	cfg      Config
	mux      *http.ServeMux
	sessions sync.WaitGroup
	pages    atomic.Int64    // the pages connected now
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
	s.mux.Handle("/", FileServer(withGzip(sub)))
	s.mux.HandleFunc("/ws", s.serveWS)
	return s
}

// ServeHTTP serves the page (/) and the WebSocket (/ws).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Loopback && !loopbackHost(r.Host) {
		http.Error(w, fmt.Sprintf("damka gui: host %q is not this machine's loopback address: refused", r.Host), http.StatusForbidden)
		return
	}
	if s.cfg.Token != "" && !s.tokenOK(w, r) {
		s.cfg.Log.Warn().Str("remote", r.RemoteAddr).Str("path", r.URL.Path).Msg("request without the token refused")
		http.Error(w, "damka gui: this server needs the token of the address it printed (http://HOST:PORT/?token=...): refused", http.StatusForbidden)
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

// tokenCookie is the name of the cookie that carries the server's token:
// one name per token, so that two servers on one host keep theirs.
func tokenCookie(token string) string {
	h := sha256.Sum256([]byte(token))
	return "damka-token-" + hex.EncodeToString(h[:4])
}

// tokenOK reports whether r carries the server's token, as ?token= (which
// sets the cookie for the page's other requests) or as the cookie.
func (s *Server) tokenOK(w http.ResponseWriter, r *http.Request) bool {
	want := []byte(s.cfg.Token)
	if q := r.URL.Query().Get("token"); q != "" && subtle.ConstantTimeCompare([]byte(q), want) == 1 {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie(s.cfg.Token), Value: s.cfg.Token, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	c, err := r.Cookie(tokenCookie(s.cfg.Token))
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), want) == 1
}

// FileServer serves the files of fsys as http.FileServer does, and their
// precompressed copies where fsys has them: a GET of NAME from a client
// that accepts gzip gets NAME.gz, when there is one, with Content-Encoding
// gzip and NAME's content type.
func FileServer(fsys fs.FS) http.Handler {
	plain := http.FileServer(http.FS(fsys))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && acceptsGzip(r.Header.Get("Accept-Encoding")) {
			name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
			if name == "" || strings.HasSuffix(r.URL.Path, "/") {
				name = path.Join(name, "index.html")
			}
			if f, err := fsys.Open(name + ".gz"); err == nil {
				defer f.Close()
				st, err := f.Stat()
				rs, seeks := f.(io.ReadSeeker)
				if err == nil && !st.IsDir() && seeks {
					ctype := mime.TypeByExtension(path.Ext(name))
					if ctype == "" {
						ctype = "application/octet-stream"
					}
					w.Header().Set("Content-Type", ctype)
					w.Header().Set("Content-Encoding", "gzip")
					http.ServeContent(w, r, name, st.ModTime(), rs)
					return
				}
			}
		}
		plain.ServeHTTP(w, r)
	})
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
			return false
		}
		return true
	}
	return false
}

// withGzip returns the files of fsys, each with a gzip copy beside it
// (NAME.gz) where that is smaller, made once.
func withGzip(fsys fs.FS) fs.FS {
	out := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		out[name] = &fstest.MapFile{Data: data, Mode: 0o444}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(data)
		_ = zw.Close()
		if b.Len() < len(data) {
			out[name+".gz"] = &fstest.MapFile{Data: b.Bytes(), Mode: 0o444}
		}
		return nil
	})
	if err != nil {
		panic(err) // the embedded files are readable: a build error otherwise
	}
	return out
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
	n := s.pages.Add(1)
	defer s.pages.Add(-1)
	if s.cfg.MaxPages > 0 && n > int64(s.cfg.MaxPages) {
		// Accepted, then closed with the reason, which the page shows (a
		// refused WebSocket tells it nothing).
		s.cfg.Log.Warn().Int("pages", s.cfg.MaxPages).Str("remote", r.RemoteAddr).Msg("page refused: too many pages")
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
		if err == nil {
			_ = conn.Close(websocket.StatusTryAgainLater, fmt.Sprintf("%d pages are open, the most this server allows: close one and reload", s.cfg.MaxPages))
		}
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
