module codeberg.org/forgego/forgejo/cmd/forgego

go 1.26.0

require (
	codeberg.org/forgego/forgejo v0.1.0
	codeberg.org/forgego/forgejo/forgeredis v0.1.0
	github.com/creack/pty v1.1.24
	github.com/itchyny/gojq v0.12.20
	github.com/redis/go-redis/v9 v9.23.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
