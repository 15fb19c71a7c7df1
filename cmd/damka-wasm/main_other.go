//go:build !(js && wasm)

package main

// main does nothing outside js/wasm.
func main() {}
