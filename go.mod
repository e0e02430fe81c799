module codeberg.org/forgego/forgejo

go 1.26
