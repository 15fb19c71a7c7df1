// The Web Worker of the wasm folder (make wasm): it runs damka.wasm with
// Go's wasm_exec.js, and damka takes over onmessage and answers the page by
// postMessage, JSON text each way. A failure to load is told to the page
// as an error message.
"use strict";
importScripts("wasm_exec.js");
const go = new Go();
fetch("damka.wasm")
  .then((r) => {
    if (!r.ok) throw new Error("HTTP " + r.status);
    return r.arrayBuffer();
  })
  .then((buf) => WebAssembly.instantiate(buf, go.importObject))
  .then((res) => go.run(res.instance))
  .catch((e) => postMessage(JSON.stringify({ type: "error", message: "damka.wasm did not load: " + e })));
