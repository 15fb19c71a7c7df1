//go:build race

package hub

// raceEnabled: the race detector shadows every allocation, so tests skip
// the steps that allocate gigabytes.
const raceEnabled = true
