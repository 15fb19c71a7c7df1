//go:build race

package search

// raceBuild: built with the race detector.
const raceBuild = true
