// progress.go: the one rule of the progress bars of match, book build and
// selfplay: a bar on standard error only when it is a terminal, and the
// one flag --no-progress to turn it off there.

package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
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

// gamesBar returns the progress callback of a command that writes a game
// file (selfplay, label): a bar of games on w labelled desc, made on the
// first call with the total then known, and finish, which ends the line
// of a bar that was drawn. Without progressOn both do nothing.
func gamesBar(w io.Writer, noProgress bool, desc string) (progress func(done, total int), finish func()) {
	var bar *progressbar.ProgressBar
	finish = func() {
		if bar != nil {
			_ = bar.Exit()
			fmt.Fprintln(w)
		}
	}
	if !progressOn(w, noProgress) {
		return nil, finish
	}
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("games"),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionSetElapsedTime(true),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionSetWidth(30))
		}
		_ = bar.Set(done)
	}, finish
}
