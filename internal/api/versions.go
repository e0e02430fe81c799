package api

import (
	"embed"
)

// ReleaseSpecs holds the API spec of every supported Forgejo release, as
// the server renders it (provenance in versions/PROVENANCE.md).
//
//go:embed versions/*.json
var ReleaseSpecs embed.FS

// Release is one supported Forgejo release and the spec it serves.
type Release struct {
	// Version is the release line, "MAJOR.MINOR", as the version table
	// states it ("15.0").
	Version string
	// File is the spec's path in ReleaseSpecs.
	File string
	// Served is the version string of the spec's build (info.version).
	Served string
	// SHA256 is the file's hash, recorded in versions/PROVENANCE.md.
	SHA256 string
}

// Releases are the supported releases, oldest first. The pinned spec
// (Spec) is a later build of the newest line; an operation it has that no
// release has would be credited to the newest line.
var Releases = []Release{
	{Version: "11.0", File: "versions/forgejo-11.0.15.json", Served: "11.0.15+gitea-1.22.0", SHA256: "9ad51d70c70ca8f94040dc28f2ee3ed30266d35df2d7543dca1b4ebfb7120989"},
	{Version: "13.0", File: "versions/forgejo-13.0.5.json", Served: "13.0.5+gitea-1.22.0", SHA256: "f266cd74476051c4c45fb0ce6d5ef9a76aa10046a5b69c100257b6e16ce834de"},
	{Version: "14.0", File: "versions/forgejo-14.0.5.json", Served: "14.0.5+gitea-1.22.0", SHA256: "638bc09cbbb69a1a4c2ac2e51907cd53821a5e960c1bb45e5bea1fcf14944e7d"},
	{Version: "15.0", File: "versions/forgejo-15.0.3.json", Served: "15.0.3+gitea-1.22.0", SHA256: "a90f2fe1266a7a08dfcf682cd28db96c364e18a7de2a4e559a26afe3485bb26f"},
	{Version: "16.0", File: "versions/forgejo-16.0.0-dev-539-4695780d41.json", Served: "16.0.0-dev-539-4695780d41+gitea-1.22.0", SHA256: "1bef1e8c8f975f18ba80f901bb67c0bcc96270241db6f85297b8ff55aee43563"},
}
