module github.com/toonstream/toon/bench

go 1.23.0

require (
	github.com/go-json-experiment/json v0.0.0-20250211171154-1ae217ad3535
	github.com/tiktoken-go/tokenizer v0.7.0
	github.com/toonstream/toon v0.0.0-00010101000000-000000000000
)

require (
	github.com/dlclark/regexp2 v1.11.5 // indirect
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/sys v0.34.0 // indirect
)

replace github.com/toonstream/toon => ../
