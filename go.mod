module github.com/toolparse/toolparse

go 1.25.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/google/go-cmp v0.7.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/pflag v1.0.10
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/term v0.44.0
	golang.org/x/text v0.14.0
)

require golang.org/x/sys v0.46.0 // indirect
