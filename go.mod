module github.com/toonstream/toon

go 1.23

require (
	github.com/dlclark/regexp2 v1.11.5
	github.com/go-json-experiment/json v0.0.0-20250211171154-1ae217ad3535
	github.com/klauspost/cpuid/v2 v2.3.0
	github.com/tiktoken-go/tokenizer v0.7.0
	github.com/valyala/bytebufferpool v1.0.0
)

require golang.org/x/sys v0.30.0 // indirect
