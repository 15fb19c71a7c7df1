//go:build !js

package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPageScripts: every script of the page's folder is loaded by
// index.html, board.js before app.js (whose setup draws with it), and one
// of over 1 KiB goes gzipped to a browser that accepts gzip, as app.js does.
func TestPageScripts(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	names, err := fs.Glob(static, "static/*.js")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	code, _, html := get(t, hs.URL+"/", nil)
	require.Equal(t, http.StatusOK, code)
	page := string(html)
	for _, name := range names {
		base := path.Base(name)
		assert.Contains(t, page, `<script src="`+base+`"`, base)
		code, _, plain := get(t, hs.URL+"/"+base, nil)
		require.Equal(t, http.StatusOK, code, base)
		if len(plain) <= 1024 {
			continue
		}
		code, hdr, body := get(t, hs.URL+"/"+base, http.Header{"Accept-Encoding": {"gzip"}})
		require.Equal(t, http.StatusOK, code, base)
		assert.Equal(t, "gzip", hdr.Get("Content-Encoding"), base)
		assert.Contains(t, hdr.Get("Content-Type"), "javascript", base)
		zr, err := gzip.NewReader(bytes.NewReader(body))
		require.NoError(t, err, base)
		un, err := io.ReadAll(zr)
		require.NoError(t, err, base)
		assert.Equal(t, plain, un, base)
	}
	board, app := strings.Index(page, `<script src="board.js"`), strings.Index(page, `<script src="app.js"`)
	require.GreaterOrEqual(t, board, 0)
	assert.Less(t, board, app, "board.js loads before app.js")
}
