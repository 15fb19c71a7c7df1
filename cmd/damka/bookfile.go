// bookfile.go: --book-file, an opening book file (as damka book build
// writes it) instead of the embedded book, for hub and dxp.

package main

import (
	"github.com/spf13/cobra"

	"damka/book"
	"damka/engine"
)

// registerBookFile adds --book-file to cmd.
func registerBookFile(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "book-file", "",
		"opening book file (as damka book build writes it) instead of the embedded book; it holds one variant (Hub parameter book-file)")
}

// loadBookFile reads the --book-file book for variant v: nil without the
// flag (the embedded book). A file that does not load or holds another
// variant's book is bad input (exit status 2) naming the file and what
// was wrong.
func loadBookFile(path string, v engine.VariantID) (*book.Book, error) {
	if path == "" {
		return nil, nil
	}
	b, err := book.ReadFileAny(path)
	if err != nil {
		return nil, badInput("--book-file: %v", err)
	}
	if b.Variant() != v {
		return nil, badInput("--book-file %s is a %v book, not %v: give a %v book or --variant %v",
			path, b.Variant(), v, v, b.Variant())
	}
	logger.Info().Str("variant", v.String()).Str("book", path).Msg("opening book")
	return b, nil
}
