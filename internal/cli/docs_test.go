package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
