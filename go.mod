module github.com/toolparse/toolparse

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/spf13/pflag v1.0.10
	gopkg.in/yaml.v3 v3.0.1
)
