package forgejo

import (
	"strconv"
	"strings"
)

// VersionInfo is a server version string taken apart. Forgejo reports
// "16.0.0-dev-668-1bdb1938+gitea-1.22.0" (its own version, then the Gitea
// API level it is compatible with); Gitea reports plain semver ("1.27.3").
type VersionInfo struct {
	// Major, Minor and Patch are the server's own version numbers.
	Major, Minor, Patch int
	// Pre is the pre-release part after "-", such as "dev-668-1bdb1938".
	Pre string
	// Forgejo is true when the build metadata names a Gitea compatibility
	// level, which only Forgejo reports.
	Forgejo bool
	// GiteaCompat is that level, such as "1.22.0"; empty on Gitea itself.
	GiteaCompat string
}

// ParseVersion reads a server version as Forgejo or Gitea report it. A
// leading "v" is accepted. ok is false when the string does not start with
// MAJOR.MINOR (instances built from odd branches report odd things; treat
// those as "unknown", not as an error).
func ParseVersion(s string) (v VersionInfo, ok bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	core, build, _ := strings.Cut(s, "+")
	core, v.Pre, _ = strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return VersionInfo{}, false
	}
	nums := [3]int{}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return VersionInfo{}, false
		}
		nums[i] = n
	}
	v.Major, v.Minor, v.Patch = nums[0], nums[1], nums[2]
	if compat, found := strings.CutPrefix(build, "gitea-"); found {
		v.Forgejo, v.GiteaCompat = true, compat
	}
	return v, true
}

// Info parses the version this answer carries; see [ParseVersion].
func (v *ServerVersion) Info() (VersionInfo, bool) {
	if v == nil {
		return VersionInfo{}, false
	}
	return ParseVersion(v.Version)
}
