package version

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFromBuildInfo(t *testing.T) {
	info := func(v string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "damka", Version: v}, Settings: settings}, true
		}
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "3b2d34a0123456789abcdef"}
	at := debug.BuildSetting{Key: "vcs.time", Value: "2026-12-01T09:11:51Z"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	assert.Equal(t, "1.2.0", fromBuildInfo("1.2.0", info("(devel)", rev)))
	assert.Equal(t, "v0.0.0-20261201091151-3b2d34a01234+dirty", fromBuildInfo("", info("v0.0.0-20261201091151-3b2d34a01234+dirty", rev)))
	assert.Equal(t, "dev-3b2d34a01234-20261201T091151Z-dirty", fromBuildInfo("", info("(devel)", rev, at, dirty)))
	assert.Equal(t, "dev-3b2d34a01234-20261201T091151Z", fromBuildInfo("", info("", rev, at)))
	assert.Equal(t, "dev", fromBuildInfo("", info("(devel)")))
	assert.Equal(t, "dev", fromBuildInfo("", func() (*debug.BuildInfo, bool) { return nil, false }))
	assert.NotContains(t, String(), " ")
}
