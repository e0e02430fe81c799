package forgejo

import "testing"

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in   string
		want VersionInfo
		ok   bool
	}{
		{"16.0.0-dev-668-1bdb1938+gitea-1.22.0", VersionInfo{16, 0, 0, "dev-668-1bdb1938", true, "1.22.0"}, true},
		{"11.0.3+gitea-1.22.0", VersionInfo{11, 0, 3, "", true, "1.22.0"}, true},
		{"1.27.3", VersionInfo{1, 27, 3, "", false, ""}, true},
		{"v1.28.0-dev", VersionInfo{1, 28, 0, "dev", false, ""}, true},
		{" 1.22 ", VersionInfo{1, 22, 0, "", false, ""}, true},
		{"1.27.3+build.5", VersionInfo{1, 27, 3, "", false, ""}, true},
		{"", VersionInfo{}, false},
		{"main", VersionInfo{}, false},
		{"1", VersionInfo{}, false},
		{"1.x.3", VersionInfo{}, false},
		{"1.2.3.4", VersionInfo{}, false},
		{"-1.2.3", VersionInfo{}, false},
	}
	for _, tc := range cases {
		got, ok := ParseVersion(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseVersion(%q) = %+v %v, want %+v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	var nilV *ServerVersion
	if _, ok := nilV.Info(); ok {
		t.Error("nil version")
	}
	if info, ok := (&ServerVersion{Version: "1.27.3"}).Info(); !ok || info.Forgejo || info.Minor != 27 {
		t.Errorf("Info = %+v", info)
	}
}
