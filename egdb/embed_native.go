//go:build !js

package egdb

import "embed"

// embedded holds the tables built into the binary (see docs/egdb.md): all
// of data/ (the js/wasm build embeds fewer, see embed_js.go).
//
//go:embed data
var embedded embed.FS
