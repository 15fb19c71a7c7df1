//go:build race

package web

// waitScale stretches the tests' waits under the race detector, which
// makes the searches and reviews behind them several times slower.
const waitScale = 6
