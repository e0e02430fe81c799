module codeberg.org/forgego/forgejo/bench

go 1.26.0

require (
	code.gitea.io/sdk/gitea v0.25.1
	codeberg.org/forgego/forgejo v0.1.0
	github.com/go-playground/webhooks/v6 v6.4.0
)

require (
	codeberg.org/forgego/forgejo/forgeredis v0.1.0
	github.com/42wim/httpsig v1.2.4 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/davidmz/go-pageant v1.0.2 // indirect
	github.com/go-fed/httpsig v1.1.0 // indirect
	github.com/hashicorp/go-version v1.9.0 // indirect
	github.com/redis/go-redis/v9 v9.23.0
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/crypto v0.50.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
