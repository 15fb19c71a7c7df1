// How the page reaches damka: "worker", damka.wasm in a Web Worker
// (worker.js). It replaces protocol/web/static/mode.js in the wasm folder.
window.DAMKA_TRANSPORT = "worker";
