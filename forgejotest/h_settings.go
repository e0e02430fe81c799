package forgejotest

import "net/http"

// The instance's settings (/settings/…), as a default Forgejo answers them.

func hAPISettings(c *call) {
	c.json(http.StatusOK, struct {
		MaxResponseItems       int `json:"max_response_items"`
		DefaultPagingNum       int `json:"default_paging_num"`
		DefaultGitTreesPerPage int `json:"default_git_trees_per_page"`
		DefaultMaxBlobSize     int `json:"default_max_blob_size"`
	}{c.s.cfg.maxItems, c.s.cfg.pagingNum, 1000, 10485760})
}

// ---- settings

// defaultAllowedTypes is Forgejo's default [attachment] ALLOWED_TYPES.
const defaultAllowedTypes = ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip"

func hAttachmentSettings(c *call) {
	c.json(http.StatusOK, struct {
		Enabled      bool   `json:"enabled"`
		AllowedTypes string `json:"allowed_types"`
		MaxSize      int64  `json:"max_size"`
		MaxFiles     int64  `json:"max_files"`
	}{true, defaultAllowedTypes, c.s.cfg.maxAttachment >> 20, 5})
}

// hRepositorySettings: everything the fake models is enabled. It has no
// mirrors, migrations or LFS of its own, but says what a default Forgejo
// says.
func hRepositorySettings(c *call) {
	c.json(http.StatusOK, struct {
		MirrorsDisabled      bool `json:"mirrors_disabled"`
		HTTPGitDisabled      bool `json:"http_git_disabled"`
		MigrationsDisabled   bool `json:"migrations_disabled"`
		StarsDisabled        bool `json:"stars_disabled"`
		TimeTrackingDisabled bool `json:"time_tracking_disabled"`
		LFSDisabled          bool `json:"lfs_disabled"`
		ForksDisabled        bool `json:"forks_disabled"`
	}{})
}

func hUISettings(c *call) {
	c.json(http.StatusOK, struct {
		DefaultTheme     string   `json:"default_theme"`
		AllowedReactions []string `json:"allowed_reactions"`
		CustomEmojis     []string `json:"custom_emojis"`
	}{"forgejo-auto", allowedReactions, []string{"codeberg", "forgejo", "git", "gitea", "gogs"}})
}
