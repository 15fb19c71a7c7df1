package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// maxREADMELines bounds the README: a manual, with the rest in docs/.
const maxREADMELines = 400

// TestDocsStayInTheRepository: the README is a manual of at most
// maxREADMELines lines that links docs/README.md; docs/README.md links
// every page of docs/; and no Go file, document, Makefile or script of the
// repository points at the shared folder beside it: the repository
// describes itself.
func TestDocsStayInTheRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	lines := strings.Count(string(readme), "\n")
	assert.LessOrEqual(t, lines, maxREADMELines, "README.md lines")
	assert.Contains(t, string(readme), "(docs/README.md)")

	index, err := os.ReadFile(filepath.Join(root, "docs", "README.md"))
	require.NoError(t, err)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	for _, p := range pages {
		name := filepath.Base(p)
		if name == "README.md" {
			continue
		}
		assert.True(t, strings.Contains(string(index), "("+name+")"), "docs/README.md does not link %s", name)
	}

	outside := ".." + "/shared" // spelled so that this file does not match
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh", ".c", ".h", ".txt", ".yml":
		default:
			if d.Name() != "Makefile" && filepath.Base(filepath.Dir(path)) != ".ci" {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		assert.False(t, strings.Contains(string(b), outside), "%s points outside the repository (%s)", path, outside)
		return nil
	})
	require.NoError(t, err)
}

// repoRoot is the repository root, seen from this package's folder.
var repoRoot = filepath.Join("..", "..")

// docFiles returns the README, the pages of docs/, the Makefile and the
// decks' README: the files whose examples a user runs from a clone.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	names := []string{"README.md", "Makefile", filepath.Join("openings", "decks", "README.txt")}
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	for _, p := range pages {
		rel, err := filepath.Rel(repoRoot, p)
		require.NoError(t, err)
		names = append(names, rel)
	}
	files := make(map[string]string, len(names))
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(repoRoot, n))
		require.NoError(t, err)
		files[n] = string(b)
	}
	return files
}

var (
	// inputFlagRe: a flag whose value is a file a command reads.
	inputFlagRe = regexp.MustCompile("--(?:openings|positions-file|data|test-pdn|games)[ =]+\"?([^\\s\"'`|)\\]]+)")
	// inputArgRe: the file argument of pdn check and review.
	inputArgRe = regexp.MustCompile("damka (?:pdn check|review)(?: --variant [a-z]+)? ([^\\s\"'`|)\\]]+)")
	// outputRe: a file a command of the page writes.
	outputRe = regexp.MustCompile("(?:--out|--pdn|>) +([^\\s\"'`|)\\]]+)")
	// deckRe: a deck a page describes how to make ("`en40.tsv`: ...",
	// "`intl40.pdn` (42 openings): ...").
	deckRe = regexp.MustCompile("`([^`\\s]+)`(?: \\([^)]*\\))?:")
	// placeholderRe: FILE, DIR, GAME.pdn, FILE...: a name the user fills in.
	placeholderRe = regexp.MustCompile(`^[A-Z][A-Z_]*(\.[a-z.]+)?(\.\.\.)?$`)
	// placeholderPartRe: a path with a part the user fills in
	// (eval/weights/VARIANT.dkw, book/data/<variant>.book).
	placeholderPartRe = regexp.MustCompile(`(^|/)([A-Z][A-Z_]*(\.[a-z.]+)?|<[a-z]+>[^/]*)$`)
	// repoPathRe: a path into the repository's data folders.
	repoPathRe = regexp.MustCompile("(?:^|[\\s`(\"=])((?:testdata/draughts|openings/decks|learn/games|learn/peers|learn/sprt|eval/weights|book/data|egdb/data)/[^\\s`)\"'|,;]*)")
)

// TestDocsExamplesRunFromAClone: the examples of the README, docs/, the
// Makefile and the decks' README read only files of the repository (or
// files the same page makes, or that the user names: FILE, GAME.pdn);
// TestDocsStayInTheRepository checks that none points outside it.
func TestDocsExamplesRunFromAClone(t *testing.T) {
	files := docFiles(t)
	made := map[string]bool{} // files a page makes or says how to make
	for _, text := range files {
		for _, re := range []*regexp.Regexp{outputRe, deckRe} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				made[m[1]] = true
			}
		}
	}
	for name, text := range files {
		var inputs []string
		for _, re := range []*regexp.Regexp{inputFlagRe, inputArgRe} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				inputs = append(inputs, m[1])
			}
		}
		for _, in := range inputs {
			f := strings.Replace(in, "$D/", "testdata/draughts/", 1)
			if !strings.Contains(f, ".") || placeholderRe.MatchString(f) || made[f] ||
				strings.ContainsAny(f, "${%") || strings.Contains(f, "...") {
				continue // a number (--games 10), a name the user fills in, a file the docs make
			}
			_, err := os.Stat(filepath.Join(repoRoot, f))
			assert.NoError(t, err, "%s: an example reads %s, which is not in the repository", name, in)
		}
		for _, m := range repoPathRe.FindAllStringSubmatch(text, -1) {
			p := strings.TrimRight(m[1], ".:")
			if strings.Contains(p, "$") || made[p] || placeholderPartRe.MatchString(p) {
				continue
			}
			found, err := filepath.Glob(filepath.Join(repoRoot, p))
			require.NoError(t, err, p)
			assert.NotEmpty(t, found, "%s names %s, which is not in the repository", name, p)
		}
	}
}

// dxpExampleRe: a damka dxp command line of an example, up to the end of
// its line or its backtick span.
var dxpExampleRe = regexp.MustCompile("damka dxp (?:--listen|--connect)[^`\n]*")

// TestDocsDXPExamplesNameTheVariant: every damka dxp example that listens or
// connects gives --variant, which damka dxp requires (exit status 2 without).
func TestDocsDXPExamplesNameTheVariant(t *testing.T) {
	examples := 0
	for name, text := range docFiles(t) {
		for _, ex := range dxpExampleRe.FindAllString(text, -1) {
			examples++
			assert.Contains(t, ex, "--variant ", "%s: %q lacks --variant, which damka dxp requires", name, ex)
		}
	}
	assert.GreaterOrEqual(t, examples, 4)
}

// mkdirRe: a folder a page makes (mkdir DIR, mkdir -p DIR).
var mkdirRe = regexp.MustCompile(`mkdir(?: -p)? +([^\s;&|` + "`" + `]+)`)

// TestDocsExamplesWriteIntoFolders: a file an example writes (--out, --pdn,
// >) into a relative folder goes into one the repository has, or one the
// same page makes with mkdir: the commands refuse an output whose folder does
// not exist.
func TestDocsExamplesWriteIntoFolders(t *testing.T) {
	for name, text := range docFiles(t) {
		made := map[string]bool{}
		for _, m := range mkdirRe.FindAllStringSubmatch(text, -1) {
			made[filepath.Clean(m[1])] = true
		}
		for _, m := range outputRe.FindAllStringSubmatch(text, -1) {
			out := m[1]
			dir := filepath.Dir(out)
			if dir == "." || filepath.IsAbs(out) || strings.ContainsAny(out, "${<") ||
				placeholderPartRe.MatchString(out) || made[dir] {
				continue // the current folder, the user's own, a name the user fills in
			}
			info, err := os.Stat(filepath.Join(repoRoot, dir))
			ok := err == nil && info.IsDir()
			assert.True(t, ok, "%s: an example writes %s, but the repository has no folder %s and the page makes none (mkdir)", name, out, dir)
		}
	}
}

// TestDocsMatchesWriteTheirOwnPDN: the match examples of two pages never
// append to the same --pdn file: a user who runs both would get one file of
// two matches, which --resume and match merge refuse.
func TestDocsMatchesWriteTheirOwnPDN(t *testing.T) {
	pdnRe := regexp.MustCompile("--pdn +([^\\s\"'`|)\\]]+)")
	pages := map[string]string{} // file -> the page that first names it
	for name, text := range docFiles(t) {
		seen := map[string]bool{}
		for _, m := range pdnRe.FindAllStringSubmatch(text, -1) {
			f := m[1]
			if seen[f] || placeholderRe.MatchString(f) || strings.ContainsAny(f, "${") {
				continue
			}
			seen[f] = true
			if other, ok := pages[f]; ok {
				assert.Fail(t, "two pages write one PDN", "%s and %s both have a match write --pdn %s", other, name, f)
				continue
			}
			pages[f] = name
		}
	}
	assert.GreaterOrEqual(t, len(pages), 8)
}

// TestEgdbDocBytes: the rows of docs/egdb.md's figures for the sets that
// egdb/data embeds (English 5 pieces, international 4) give the bytes of
// those files: a build writes them byte for byte.
func TestEgdbDocBytes(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "egdb.md"))
	require.NoError(t, err)
	for _, set := range []struct {
		variant string
		pieces  int
	}{{"english", 5}, {"international", 4}} {
		files, err := filepath.Glob(filepath.Join(repoRoot, "egdb", "data", set.variant+"-*.egdb"))
		require.NoError(t, err)
		require.NotEmpty(t, files, set.variant)
		var bytes int64
		for _, f := range files {
			info, err := os.Stat(f)
			require.NoError(t, err)
			bytes += info.Size()
		}
		row := regexp.MustCompile(fmt.Sprintf(`(?m)^\| %s \| %d \| (?:[^|]*\|){4} ([0-9 ]+) \|`, set.variant, set.pieces))
		m := row.FindStringSubmatch(string(doc))
		require.NotNil(t, m, "docs/egdb.md has no row for %s %d pieces", set.variant, set.pieces)
		got, err := strconv.ParseInt(strings.ReplaceAll(m[1], " ", ""), 10, 64)
		require.NoError(t, err)
		assert.Equal(t, bytes, got, "docs/egdb.md: bytes of %s %d pieces against egdb/data", set.variant, set.pieces)
	}
}

// TestHubDocSession: the start of docs/hub.md's example session, from
// "> hub" to "< wait", is what damka hub answers (a release build's version
// aside): every parameter line the engine sends, egdb-path among them.
func TestHubDocSession(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "hub.md"))
	require.NoError(t, err)
	text := string(doc)
	start := strings.Index(text, "\n> hub\n< id ")
	require.GreaterOrEqual(t, start, 0, "docs/hub.md has no session starting with > hub and its id line")
	var want []string
	for _, line := range strings.Split(text[start+len("\n> hub\n"):], "\n") {
		require.True(t, strings.HasPrefix(line, "< "), "docs/hub.md: %q between > hub and < wait", line)
		want = append(want, strings.TrimPrefix(line, "< "))
		if line == "< wait" {
			break
		}
	}
	out, err := rootWithInput(t, "hub\nquit\n", "hub")
	require.NoError(t, err)
	version := regexp.MustCompile(`version=\S+`)
	got := strings.Split(strings.TrimSpace(version.ReplaceAllString(out, "version=dev")), "\n")
	assert.Equal(t, got, want, "docs/hub.md's session against damka hub's answer")
	assert.Contains(t, want, `param name=egdb-path value="" type=string`)
}

// TestDocsMatchScores: in the result tables of the docs, a row's games,
// W-D-L and score cells agree: W+D+L games, score (W + D/2) / games.
func TestDocsMatchScores(t *testing.T) {
	row := regexp.MustCompile(`\| (\d+) \| (\d+)-(\d+)-(\d+) \| (\d+\.\d)% \|`)
	rows := 0
	for name, text := range docFiles(t) {
		for _, m := range row.FindAllStringSubmatch(text, -1) {
			rows++
			var n, w, d, l int
			for i, p := range []*int{&n, &w, &d, &l} {
				v, err := strconv.Atoi(m[i+1])
				require.NoError(t, err)
				*p = v
			}
			assert.Equal(t, n, w+d+l, "%s: %s: W+D+L is not the games", name, m[0])
			score := fmt.Sprintf("%.1f", 100*(float64(w)+float64(d)/2)/float64(n))
			assert.Equal(t, score, m[5], "%s: %s: the score of %d-%d-%d is %s%%", name, m[0], w, d, l, score)
		}
	}
	assert.GreaterOrEqual(t, rows, 20)
}

// TestLicence: LICENSE is the MIT licence with the copyright of the damka
// authors, and the README says so.
func TestLicence(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "LICENSE"))
	require.NoError(t, err)
	text := string(b)
	assert.True(t, strings.HasPrefix(text, "MIT License\n"), "LICENSE is not the MIT licence")
	assert.Regexp(t, `Copyright \(c\) \d{4} the damka authors\n`, text)
	assert.Contains(t, text, "Permission is hereby granted, free of charge, to any person obtaining a copy")
	assert.Contains(t, text, `THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND`)
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	assert.Regexp(t, `(?s)## Licence\s+MIT, © the damka authors\. See \[LICENSE\]\(LICENSE\)\.`, string(readme))
}

// TestHelpNamesNoPeersHarness: no command's help names the folder of the
// project's own peer builds ($PEERS) or its Scan adapter (scan_hub2), which
// a user of damka does not have; docs/strength.md ("The peer engines") is
// the one place that describes them.
func TestHelpNamesNoPeersHarness(t *testing.T) {
	var walk func(c *cobra.Command)
	commands := 0
	walk = func(c *cobra.Command) {
		commands++
		help := c.Long + "\n" + c.Example + "\n" + c.Flags().FlagUsages()
		for _, s := range []string{"$PEERS", "scan_hub2", "peers harness"} {
			assert.NotContains(t, help, s, "damka %s --help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	assert.Greater(t, commands, 10)
}

// TestBookStatsCommandsRunFromAClone: damka book stats prints each embedded
// book's build command as a user can run it from the repository root: its
// game and ballot files are files of the repository (testdata/draughts),
// none outside it, and docs/book.md gives the same command.
func TestBookStatsCommandsRunFromAClone(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "book.md"))
	require.NoError(t, err)
	out, stderr, code := runCLI("book", "stats")
	require.Equal(t, 0, code, stderr)
	fileArg := regexp.MustCompile(`--(?:games|positions-file) (\S+)`)
	commands, files := 0, 0
	for _, l := range strings.Split(out, "\n") {
		command, ok := strings.CutPrefix(l, "  command: ")
		if !ok {
			continue
		}
		commands++
		assert.NotContains(t, command, "..", "book stats: %s", command)
		for _, m := range fileArg.FindAllStringSubmatch(command, -1) {
			files++
			assert.True(t, strings.HasPrefix(m[1], "testdata/draughts/"), "book stats: %s", m[1])
			_, err := os.Stat(filepath.Join(repoRoot, m[1]))
			assert.NoError(t, err, "book stats names %s", m[1])
		}
		assert.Contains(t, string(doc), "\n"+command+"\n", "docs/book.md lacks the command book stats prints")
	}
	assert.Equal(t, len(engine.AllVariants()), commands, out)
	assert.GreaterOrEqual(t, files, 4, out)
}

func TestEmbeddedBuildLine(t *testing.T) {
	for in, want := range map[string]string{
		"command: damka book build --games /x/y/a.pdn --positions-file b.tsv --variant english": "command: damka book build --games testdata/draughts/a.pdn --positions-file testdata/draughts/b.tsv --variant english",
		"command: damka book build --games '/x/my games/it'\\''s.pdn' --depth 4":                "command: damka book build --games 'testdata/draughts/it'\\''s.pdn' --depth 4",
		"settings: variant=english games=1/0":                                                   "settings: variant=english games=1/0",
	} {
		assert.Equal(t, want, embeddedBuildLine(in))
	}
}
