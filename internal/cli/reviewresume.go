// reviewresume.go: what a review's progress file (review.ProgressFile)
// records of the engine's settings.

package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"

	"damka/player"
)

// reviewSettings returns the engine settings of p that change a review's
// scores, for its stamp: "eval-file=F egdb-path=D egdb-pieces=N", with
// the SHA-256 of the eval file's content after its name (a file of the
// same name with other weights is another review).
func reviewSettings(p *player.Player) (string, error) {
	var settings []string
	for _, name := range []string{player.SetEvalFile, player.SetEGDBPath, player.SetEGDBPieces} {
		val, err := p.Get(name)
		if err != nil {
			return "", err
		}
		if name == player.SetEvalFile && val != "" {
			data, err := os.ReadFile(val)
			if err != nil {
				return "", badInput("--%s: %v", name, err)
			}
			sum := sha256.Sum256(data)
			val += "@sha256:" + hex.EncodeToString(sum[:8])
		}
		settings = append(settings, name+"="+val)
	}
	return strings.Join(settings, " "), nil
}
