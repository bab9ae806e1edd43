module github.com/yannh/kubeconform

go 1.24

require (
	github.com/hashicorp/go-retryablehttp v0.7.7
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.1
	golang.org/x/text v0.25.0
	sigs.k8s.io/yaml v1.4.0
)

require github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
