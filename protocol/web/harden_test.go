//go:build !js

package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// get requests path of hs with the given headers; it returns the status,
// the response's headers and its body.
func get(t *testing.T, url string, header http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	// No transparent decompression: the test sees what was sent.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, body
}

// TestToken: with a token, the page and its WebSocket need it (as
// ?token= or as the cookie that sets); without one they are refused.
func TestToken(t *testing.T) {
	_, hs := newTestServer(t, Config{Token: "abc123"})
	code, _, body := get(t, hs.URL+"/", nil)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, string(body), "token")
	code, _, _ = get(t, hs.URL+"/?token=abc12", nil)
	assert.Equal(t, http.StatusForbidden, code, "a wrong token")
	code, _, _ = get(t, hs.URL+"/app.js", nil)
	assert.Equal(t, http.StatusForbidden, code, "the page's files too")

	code, hdr, body := get(t, hs.URL+"/?token=abc123", nil)
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, string(body), "app.js")
	resp := http.Response{Header: hdr}
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	c := cookies[0]
	assert.Equal(t, "abc123", c.Value)
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
	// The cookie opens the page's other files.
	code, _, _ = get(t, hs.URL+"/app.js", http.Header{"Cookie": {c.Name + "=" + c.Value}})
	assert.Equal(t, http.StatusOK, code)
	code, _, _ = get(t, hs.URL+"/app.js", http.Header{"Cookie": {c.Name + "=nope"}})
	assert.Equal(t, http.StatusForbidden, code)

	// The WebSocket: refused without, served with the token.
	_, r, err := dial(t, hs, hs.URL)
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, r.StatusCode)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": {hs.URL}, "Cookie": {c.Name + "=" + c.Value}}})
	require.NoError(t, err)
	_, data, err := ws.Read(ctx)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"hello"`)
	ws.CloseNow()
}

// TestTokenKeepsHostCheck: the token does not replace the loopback Host
// check.
func TestTokenKeepsHostCheck(t *testing.T) {
	_, hs := newTestServer(t, Config{Token: "abc123", Loopback: true})
	req, err := http.NewRequest(http.MethodGet, hs.URL+"/?token=abc123", nil)
	require.NoError(t, err)
	req.Host = "evil.example"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

// TestMaxPages: a page past the bound is closed with a reason it can show;
// once a page goes, another may come.
func TestMaxPages(t *testing.T) {
	srv, hs := newTestServer(t, Config{MaxPages: 2})
	a := connect(t, hs)
	connect(t, hs)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := dial(t, hs, hs.URL)
	require.NoError(t, err)
	_, _, err = c.Read(ctx)
	require.Error(t, err)
	assert.Equal(t, websocket.StatusTryAgainLater, websocket.CloseStatus(err))
	var ce websocket.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Reason, "2 pages are open")
	a.c.CloseNow()
	require.Eventually(t, func() bool { return srv.pages.Load() < 2 }, 10*time.Second, 10*time.Millisecond)
	connect(t, hs)
}

// TestMaxHash: a page may not set the hash above the server's bound; the
// settings it is shown say the bound.
func TestMaxHash(t *testing.T) {
	_, hs := newTestServer(t, Config{MaxHashMiB: 8})
	c, _, err := dial(t, hs, hs.URL)
	require.NoError(t, err)
	w := &wsClient{t: t, c: c}
	t.Cleanup(func() { c.CloseNow() })
	hello := w.next("hello")
	hash := func(m map[string]any) map[string]any { return settingIn(t, m, "hash") }
	assert.EqualValues(t, 8, hash(hello)["max"])
	w.send(map[string]any{"type": "set", "name": "hash", "value": "16384"})
	assert.Contains(t, w.next("error")["message"], "at most 8 MiB")
	assert.NotEqual(t, "16384", hash(w.next("settings"))["value"], "the page's field goes back")
	w.send(map[string]any{"type": "set", "name": "hash", "value": "4"})
	assert.Equal(t, "4", hash(w.next("settings"))["value"])
}

// settingIn returns the setting name of a hello or settings message m.
func settingIn(t *testing.T, m map[string]any, name string) map[string]any {
	t.Helper()
	for _, s := range m["settings"].([]any) {
		if s.(map[string]any)["name"] == name {
			return s.(map[string]any)
		}
	}
	t.Fatalf("no %s setting", name)
	return nil
}

// TestMaxThreads: a page may not set more search threads than the
// server's bound; the settings it is shown say the bound.
func TestMaxThreads(t *testing.T) {
	_, hs := newTestServer(t, Config{MaxThreads: 2})
	c, _, err := dial(t, hs, hs.URL)
	require.NoError(t, err)
	w := &wsClient{t: t, c: c}
	t.Cleanup(func() { c.CloseNow() })
	threads := func(m map[string]any) map[string]any { return settingIn(t, m, "threads") }
	assert.EqualValues(t, 2, threads(w.next("hello"))["max"])
	w.send(map[string]any{"type": "set", "name": "threads", "value": "256"})
	assert.Contains(t, w.next("error")["message"], "set threads 256: at most 2 on this server (damka gui --max-threads)")
	assert.NotEqual(t, "256", threads(w.next("settings"))["value"], "the page's field goes back")
	w.send(map[string]any{"type": "set", "name": "threads", "value": "2"})
	assert.Equal(t, "2", threads(w.next("settings"))["value"])
}

// TestPageGzipped: the page's files go gzipped to a browser that accepts
// gzip, plain to one that does not.
func TestPageGzipped(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	code, hdr, plain := get(t, hs.URL+"/app.js", nil)
	require.Equal(t, http.StatusOK, code)
	assert.Empty(t, hdr.Get("Content-Encoding"))
	for _, path := range []string{"/app.js", "/"} {
		code, hdr, body := get(t, hs.URL+path, http.Header{"Accept-Encoding": {"gzip, deflate, br"}})
		require.Equal(t, http.StatusOK, code, path)
		assert.Equal(t, "gzip", hdr.Get("Content-Encoding"), path)
		assert.Contains(t, hdr.Values("Vary"), "Accept-Encoding", path)
		zr, err := gzip.NewReader(bytes.NewReader(body))
		require.NoError(t, err, path)
		un, err := io.ReadAll(zr)
		require.NoError(t, err, path)
		if path == "/app.js" {
			assert.Equal(t, plain, un)
			assert.Less(t, len(body), len(plain))
			assert.Contains(t, hdr.Get("Content-Type"), "javascript")
		} else {
			assert.Contains(t, string(un), "<!doctype html>")
			assert.Contains(t, hdr.Get("Content-Type"), "text/html")
		}
	}
}

// TestFileServerPrecompressed serves a folder with damka.wasm.gz beside
// damka.wasm, as make wasm writes it: the .gz with Content-Encoding to
// clients that accept gzip (not to one that refuses it with q=0), the
// plain file otherwise and where there is no .gz.
func TestFileServerPrecompressed(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm damka "), 1000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(wasm)
	require.NoError(t, zw.Close())
	fsys := fstest.MapFS{
		"damka.wasm":    {Data: wasm},
		"damka.wasm.gz": {Data: gz.Bytes()},
		"worker.js":     {Data: []byte("importScripts();")},
	}
	hs := httptest.NewServer(FileServer(fsys))
	defer hs.Close()
	for _, c := range []struct {
		accept string
		gzip   bool
	}{{"gzip", true}, {"br;q=1.0, gzip;q=0.8", true}, {"*", true}, {"", false}, {"identity", false}, {"gzip;q=0", false}} {
		code, hdr, body := get(t, hs.URL+"/damka.wasm", http.Header{"Accept-Encoding": {c.accept}})
		require.Equal(t, http.StatusOK, code, c.accept)
		assert.Equal(t, "application/wasm", hdr.Get("Content-Type"), c.accept)
		if c.gzip {
			assert.Equal(t, "gzip", hdr.Get("Content-Encoding"), c.accept)
			assert.Equal(t, gz.Bytes(), body, c.accept)
		} else {
			assert.Empty(t, hdr.Get("Content-Encoding"), c.accept)
			assert.Equal(t, wasm, body, c.accept)
		}
	}
	code, hdr, body := get(t, hs.URL+"/worker.js", http.Header{"Accept-Encoding": {"gzip"}})
	require.Equal(t, http.StatusOK, code)
	assert.Empty(t, hdr.Get("Content-Encoding"), "no .gz: the file itself")
	assert.Equal(t, "importScripts();", string(body))
	code, _, _ = get(t, hs.URL+"/nothing.js", http.Header{"Accept-Encoding": {"gzip"}})
	assert.Equal(t, http.StatusNotFound, code)
}
