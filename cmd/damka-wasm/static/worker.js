// The Web Worker of the wasm folder (make wasm): it runs damka.wasm with
// Go's wasm_exec.js, and damka takes over onmessage and answers the page by
// postMessage, JSON text each way. While damka.wasm loads it tells the page
// how far it is ({"type":"loading","loaded":BYTES,"total":BYTES}). It loads
// damka.wasm.gz where the folder has it (a third of the size) and the
// browser can unzip it, else damka.wasm. A failure to load is told to the
// page as an error message.
"use strict";
importScripts("wasm_exec.js");
const go = new Go();

// fetchWithProgress returns the body of url as bytes, telling the page how
// many have come; null when the server has no such file.
async function fetchWithProgress(url) {
  const r = await fetch(url);
  if (r.status === 404) return null;
  if (!r.ok) throw new Error(url + ": HTTP " + r.status);
  // A server that sends the file gzipped (Content-Encoding) gives its
  // compressed length: the count is of the bytes unzipped.
  const total = r.headers.get("Content-Encoding") ? 0 : Number(r.headers.get("Content-Length")) || 0;
  const reader = r.body.getReader();
  const parts = [];
  let loaded = 0, told = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    if (loaded - told > 256 * 1024) {
      told = loaded;
      postMessage(JSON.stringify({ type: "loading", loaded: loaded, total: total }));
    }
  }
  const buf = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) { buf.set(p, at); at += p.length; }
  postMessage(JSON.stringify({ type: "loading", loaded: loaded, total: total || loaded }));
  return buf;
}

// gunzip unzips gzip bytes (a server may have unzipped them already:
// then they are the wasm itself).
async function gunzip(buf) {
  if (buf.length < 2 || buf[0] !== 0x1f || buf[1] !== 0x8b) return buf;
  const stream = new Blob([buf]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function load() {
  let buf = null;
  if (typeof DecompressionStream === "function") {
    buf = await fetchWithProgress("damka.wasm.gz");
    if (buf) buf = await gunzip(buf);
  }
  if (!buf) buf = await fetchWithProgress("damka.wasm");
  if (!buf) throw new Error("damka.wasm: not found");
  const res = await WebAssembly.instantiate(buf, go.importObject);
  go.run(res.instance);
}

load().catch((e) => postMessage(JSON.stringify({ type: "error", message: "damka.wasm did not load: " + e })));
