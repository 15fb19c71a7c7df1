//go:build race

package search

// raceEnabled: under the race detector (several times slower) the long
// tests do a smaller share of their work.
const raceEnabled = true
