package main

import (
	"os"
	"testing"
)

// sharedDataDir is the project's shared data folder (shared/data/draughts),
// which CI places beside the checkout.
const sharedDataDir = "../../../shared/data/draughts"

// skipWithoutSharedData skips a test that reads the real game and ballot
// files when the checkout has no shared/ folder beside it.
func skipWithoutSharedData(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(sharedDataDir); err != nil {
		t.Skipf("shared data not present (%v)", err)
	}
}
