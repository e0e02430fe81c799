module codeberg.org/forgego/forgejo/examples/oauth2

go 1.26.0

require codeberg.org/forgego/forgejo v0.1.0

require golang.org/x/oauth2 v0.38.0
