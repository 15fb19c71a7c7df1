//go:build race

package search

// raceEnabled: built with the race detector, which does not track memory
// mapped outside the Go heap (mapWords keeps the table on the heap) and is
// several times slower (the long tests do a smaller share of their work).
const raceEnabled = true
