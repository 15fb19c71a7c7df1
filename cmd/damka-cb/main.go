// Command damka-cb is damka.dll, damka as an engine of CheckerBoard (the
// Windows GUI of 8x8 draughts players) for English, Russian and Brazilian.
// It is built as a Windows DLL from Linux with mingw:
//
//	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
//	  go build -buildmode=c-shared -o bin/damka.dll ./cmd/damka-cb
//
// (make cbdll). It exports CheckerBoard's engine API (getmove,
// enginecommand, islegal; see protocol/cb and
// docs/checkerboard.md). The cgo exports are in exports_windows.go;
// on other systems this package is an empty program, so that go vet and go
// test of the whole module stay clean.
package main

// main is not called in a c-shared library; c-shared needs one.
func main() {}
