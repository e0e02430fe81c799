module codeberg.org/forgego/forgejo/cmd/forgego

go 1.26

require (
	codeberg.org/forgego/forgejo v0.1.0
	github.com/itchyny/gojq v0.12.20
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
)
