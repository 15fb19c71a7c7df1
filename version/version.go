// Package version says which damka this is: the release version set at
// link time, or else what the Go toolchain recorded of the source it was
// built from (VCS revision and commit time). It imports nothing of damka,
// so every front end (the command line, Hub's id, DXP) can use it.
package version

import (
	"runtime/debug"
	"strings"
)

// release is the release version, set by release builds with
// -ldflags "-X github.com/damka-draughts/damka/version.release=1.2.0"; empty otherwise.
var release string

// String returns damka's version, one word without spaces (Hub's id line
// carries it as a value): the release version when one was linked in;
// else the module version the toolchain stamped, when it is a real one
// (a tag or a pseudo-version, which holds the commit time and revision);
// else "dev-REVISION-TIME" from the VCS stamp (12 hex digits of the
// revision, the commit time as 20060102T150405Z, "-dirty" for uncommitted
// changes); else "dev" (go test, or a build outside a repository).
func String() string { return fromBuildInfo(release, readBuildInfo) }

// readBuildInfo is debug.ReadBuildInfo; tests replace it.
var readBuildInfo = debug.ReadBuildInfo

// fromBuildInfo is String with its inputs given.
func fromBuildInfo(rel string, read func() (*debug.BuildInfo, bool)) string {
	if rel != "" {
		return rel
	}
	bi, ok := read()
	if !ok || bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	var b strings.Builder
	b.WriteString("dev-")
	b.WriteString(rev[:min(len(rev), 12)])
	if at != "" {
		// 2026-12-01T09:11:51Z -> 20261201T091151Z
		b.WriteByte('-')
		b.WriteString(strings.NewReplacer("-", "", ":", "").Replace(at))
	}
	if dirty {
		b.WriteString("-dirty")
	}
	return b.String()
}
