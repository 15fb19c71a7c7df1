// How the page reaches damka: "websocket" when damka gui serves it. The
// wasm folder (make wasm) has its own mode.js that says "worker".
window.DAMKA_TRANSPORT = "websocket";
