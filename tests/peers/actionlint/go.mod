module github.com/rhysd/actionlint

go 1.24.0

require (
	github.com/bmatcuk/doublestar/v4 v4.9.1
	github.com/fatih/color v1.18.0
	github.com/google/go-cmp v0.7.0
	github.com/mattn/go-colorable v0.1.14
	github.com/mattn/go-runewidth v0.0.17
	github.com/mattn/go-shellwords v1.0.12
	github.com/robfig/cron/v3 v3.0.1
	github.com/yuin/goldmark v1.7.13
	go.yaml.in/yaml/v4 v4.0.0-rc.3
	golang.org/x/sync v0.19.0
	golang.org/x/sys v0.39.0
)

require (
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
