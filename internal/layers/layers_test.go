package layers

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is damka's module path; the table and the messages name a package
// by its path below it, prefixed "damka" (short).
const module = "github.com/damka-draughts/damka"

// short is p's name in the table: "damka/engine" for module+"/engine".
func short(p string) string { return "damka" + strings.TrimPrefix(p, module) }

// layer is each package's layer, lowest first; see the package comment.
// Packages of layer -1 are tools or test helpers that no package of the
// engine may import and that import no damka package themselves.
var layer = map[string]int{
	"damka/engine":                   0,
	"damka/version":                  0, // build information, imports nothing of damka
	"damka/internal/gzfile":          1, // files read plain or gzip-compressed (learn, match merge); regular files only (fileread)
	"damka/internal/childproc":       0, // engine processes killed when damka dies (Linux); imports nothing of damka
	"damka/internal/fileread":        0, // the files a person names, read whole: regular files, bounded; imports nothing of damka
	"damka/pdn":                      1, // PDN files and binary game records: engine only
	"damka/protocol/hubwire":         1, // the Hub line syntax, both sides': imports nothing of damka
	"damka/protocol/dxpwire":         1, // DXP on the wire (messages, framing, conversions, TCP): engine only
	"damka/protocol/hubclient":       2, // drives other Hub engines: engine, hubwire, childproc
	"damka/protocol/dxpclient":       2, // drives other DXP engines: engine and dxpwire
	"damka/eval":                     2,
	"damka/book":                     2,
	"damka/egdb":                     2, // the endgame databases, when they come
	"damka/openings":                 2, // opening decks (match, selfplay, dxp)
	"damka/search":                   3,
	"damka/learn":                    3, // the evaluation's trainer: engine, pdn, eval and egdb
	"damka/player":                   4, // the settings, their resources and one game: what every front end drives
	"damka/protocol/hub":             5,
	"damka/protocol/dxp":             5,
	"damka/protocol/cb":              5, // CheckerBoard engine API (damka.dll)
	"damka/protocol/text":            5, // the text mode: a person at a terminal
	"damka/protocol/web":             5, // damka gui: the page and its WebSocket
	"damka/bench":                    6, // perft, bench signature, solve suites, self-play, book build
	"damka/match":                    6, // match runner and its statistics (drives engines through hubclient and dxpclient)
	"damka/review":                   4, // game review: every position of a game searched, the moves annotated (damka review, the page)
	"damka/internal/cli":             7, // the command tree of the damka binary
	"damka/internal/soak":            7, // make soak: many fast games through every front end (runs the damka binary)
	"damka/cmd/damka":                8, // main: calls internal/cli
	"damka/cmd/damka-cb":             8, // damka.dll for CheckerBoard (Windows only; empty elsewhere)
	"damka/cmd/damka-wasm":           8, // the page with no server: damka in a Web Worker (js/wasm only; empty elsewhere)
	"damka/engine/internal/genboard": -1,
	"damka/internal/testfiles":       -1,
	"damka/internal/logjson":         -1,
	"damka/internal/layers":          -1,
	"damka/internal/slurmtest":       -1, // make test-slurm: sharded work on a one-node Slurm (runs the damka binary)
	"damka/review/internal/winfit":   7,  // go generate ./review: fits the win model to learn/games
}

// goList runs `go list -deps` over the module and returns, for every damka
// package reached, its direct damka imports (test imports excluded), all
// named short.
func goList(t *testing.T) map[string][]string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go list: %s", out)
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !isOurs(f[0]) {
			continue
		}
		var ours []string
		for _, imp := range f[1:] {
			if isOurs(imp) {
				ours = append(ours, short(imp))
			}
		}
		pkgs[short(f[0])] = ours
	}
	return pkgs
}

func isOurs(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }

// violations returns what breaks the layer table in pkgs (package to its
// direct damka imports): a package without a layer, an import that does not
// point down, and any import to or from a tool or test helper.
func violations(pkgs map[string][]string) []string {
	var bad []string
	for p, imps := range pkgs {
		lp, ok := layer[p]
		if !ok {
			bad = append(bad, fmt.Sprintf("package %s has no layer: add it to the table in internal/layers", p))
			continue
		}
		for _, imp := range imps {
			li, ok := layer[imp]
			switch {
			case !ok:
				// reported as a package of its own
			case lp < 0 || li < 0:
				bad = append(bad, fmt.Sprintf("%s imports %s: tools and test helpers neither import nor are imported", p, imp))
			case li >= lp:
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s (layer %d): imports must point down", p, lp, imp, li))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestImportsPointDown checks every import between damka's packages, as
// `go list -deps` reports them, against the layer table.
func TestImportsPointDown(t *testing.T) {
	pkgs := goList(t)
	require.Contains(t, pkgs, "damka/engine")
	require.Contains(t, pkgs, "damka/cmd/damka")
	assert.Empty(t, violations(pkgs))
}

// TestViolations checks the checker on a made-up graph: an upward, a
// sideways and a helper import, and a package without a layer, are each
// reported; the real edges are not.
func TestViolations(t *testing.T) {
	pkgs := map[string][]string{
		"damka/engine":       {"damka/internal/testfiles"},
		"damka/eval":         {"damka/engine"},
		"damka/book":         {"damka/engine", "damka/eval"},
		"damka/search":       {"damka/engine", "damka/eval", "damka/book", "damka/protocol/hub"},
		"damka/protocol/hub": {"damka/search", "damka/protocol/dxp"},
		"damka/bench":        {"damka/protocol/hub"},
		"damka/cmd/damka":    {"damka/bench", "damka/protocol/dxp"},
		"damka/newthing":     {"damka/engine"},
	}
	assert.Equal(t, []string{
		"damka/book (layer 2) imports damka/eval (layer 2): imports must point down",
		"damka/engine imports damka/internal/testfiles: tools and test helpers neither import nor are imported",
		"damka/protocol/hub (layer 5) imports damka/protocol/dxp (layer 5): imports must point down",
		"damka/search (layer 3) imports damka/protocol/hub (layer 5): imports must point down",
		"package damka/newthing has no layer: add it to the table in internal/layers",
	}, violations(pkgs))
}

// withoutEngine are packages that drive engines without linking damka's
// own: the clients of other engines, the match runner and the soak, which
// run damka as a process like any other engine.
var withoutEngine = []string{"damka/protocol/hubclient", "damka/protocol/dxpclient", "damka/match", "damka/internal/soak"}

// theEngine are the packages of damka's own engine (search, evaluation,
// book, the player that drives them).
var theEngine = []string{"damka/search", "damka/player", "damka/eval", "damka/book"}

// linked returns, for each package of from, the packages of to that it
// reaches through the imports of pkgs (package to its direct damka
// imports), directly or not.
func linked(pkgs map[string][]string, from, to []string) []string {
	var bad []string
	for _, p := range from {
		seen := map[string]bool{}
		stack := []string{p}
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, imp := range pkgs[q] {
				if !seen[imp] {
					seen[imp] = true
					stack = append(stack, imp)
				}
			}
		}
		for _, e := range to {
			if seen[e] {
				bad = append(bad, fmt.Sprintf("%s links %s", p, e))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestRunnerWithoutEngine checks that the clients of other engines, the
// match runner and the soak do not link damka's engine, directly or
// through another package.
func TestRunnerWithoutEngine(t *testing.T) {
	pkgs := goList(t)
	for _, p := range withoutEngine {
		require.Contains(t, pkgs, p)
	}
	assert.Empty(t, linked(pkgs, withoutEngine, theEngine))
}

// TestLinked checks the closure on a made-up graph: a package reached
// through another is reported, one not reached is not.
func TestLinked(t *testing.T) {
	pkgs := map[string][]string{
		"damka/match":         {"damka/engine", "damka/newthing"},
		"damka/newthing":      {"damka/player"},
		"damka/player":        {"damka/search"},
		"damka/internal/soak": {"damka/match"},
	}
	assert.Equal(t, []string{
		"damka/internal/soak links damka/player",
		"damka/internal/soak links damka/search",
		"damka/match links damka/player",
		"damka/match links damka/search",
	}, linked(pkgs, []string{"damka/match", "damka/internal/soak"}, []string{"damka/search", "damka/player", "damka/eval"}))
}
