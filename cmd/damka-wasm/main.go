// Command damka-wasm is damka's page with no server: built with
// GOOS=js GOARCH=wasm (make wasm), it runs in a Web Worker of the page and
// plays the part of damka gui's server for it. The worker's messages are
// the WebSocket's (see protocol/web and docs/gui.md), carried by
// postMessage; there are no external engines. The worker bridge is in
// worker_js.go; on other systems this package is an empty program, so
// that go build and go vet of the whole module stay clean.
package main
