//go:build race

package bench

// raceEnabled: under the race detector (several times slower) the long
// tests do a smaller share of their work.
const raceEnabled = true
