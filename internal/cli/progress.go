// progress.go: the one rule of the progress bars of match, book build and
// selfplay: a bar on standard error only when it is a terminal, and the
// one flag --no-progress to turn it off there.

package cli

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// noProgressUsage is the help of every command's --no-progress flag.
const noProgressUsage = "no progress bar (there is one on standard error only when it is a terminal)"

// progressOn reports whether a command shows its progress bar on w (its
// standard error): only when w is a terminal and --no-progress was not
// given, so that logs and files redirected from stderr get no bar.
func progressOn(w io.Writer, noProgress bool) bool {
	if noProgress {
		return false
	}
	return isTerminalOut(w)
}

// isTerminalOut reports whether w is a terminal (a variable so that tests can
// have a buffer taken for one).
var isTerminalOut = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
