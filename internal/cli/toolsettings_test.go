package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/player"
)

// TestToolSettingsFromTheTable: the tool commands' --variant, --threads,
// --eval-file and --egdb are the player's settings, each flag made from
// its table row (its range in the help); the lists of settings in help
// texts and in analyse, solve and review are the table's.
func TestToolSettingsFromTheTable(t *testing.T) {
	root := newRootCmd()
	for _, c := range []struct {
		path          []string
		flag, setting string
	}{
		{[]string{"perft"}, "variant", player.SetVariant},
		{[]string{"perft"}, "threads", player.SetThreads},
		{[]string{"moves"}, "variant", player.SetVariant},
		{[]string{"egdb", "build"}, "threads", player.SetThreads},
		{[]string{"egdb", "verify"}, "threads", player.SetThreads},
		{[]string{"egdb", "probe"}, "egdb", player.SetEGDBPath},
		{[]string{"egdb", "stats"}, "variant", player.SetVariant},
		{[]string{"train"}, "variant", player.SetVariant},
		{[]string{"train"}, "threads", player.SetThreads},
		{[]string{"train"}, "egdb", player.SetEGDBPath},
		{[]string{"match"}, "variant", player.SetVariant},
		{[]string{"match"}, "egdb", player.SetEGDBPath},
		{[]string{"match", "merge"}, "variant", player.SetVariant},
		{[]string{"selfplay"}, "variant", player.SetVariant},
		{[]string{"selfplay"}, "eval-file", player.SetEvalFile},
		{[]string{"label"}, "eval-file", player.SetEvalFile},
		{[]string{"bench"}, "eval-file", player.SetEvalFile},
		{[]string{"book", "build"}, "variant", player.SetVariant},
		{[]string{"book", "show"}, "variant", player.SetVariant},
		{[]string{"book", "stats"}, "variant", player.SetVariant},
		{[]string{"openings"}, "variant", player.SetVariant},
		{[]string{"pdn", "check"}, "variant", player.SetVariant},
	} {
		cmd, _, err := root.Find(c.path)
		require.NoError(t, err, "%v", c.path)
		f := cmd.Flags().Lookup(c.flag)
		require.NotNil(t, f, "%v --%s", c.path, c.flag)
		v, ok := f.Value.(*settingValue)
		require.True(t, ok, "%v --%s is not the setting's flag", c.path, c.flag)
		assert.Equal(t, c.setting, v.st.Name, "%v --%s", c.path, c.flag)
		if v.st.Kind == player.Int {
			assert.Contains(t, f.Usage, v.st.Range(), "%v --%s", c.path, c.flag)
		}
	}

	dxp, _, err := root.Find([]string{"dxp"})
	require.NoError(t, err)
	help := strings.Join(strings.Fields(dxp.Long), " ")
	for _, name := range player.Names() {
		assert.Contains(t, help, "--"+name, "dxp's help names every setting")
	}
	assert.Equal(t, player.SearchNames(), searchSettings)
	assert.Equal(t, append(player.SearchNames(), player.SetMultiPV), analyseSettings)
}
