module github.com/toonstream/toon

go 1.23.0

require (
	github.com/dlclark/regexp2 v1.11.5
	github.com/go-json-experiment/json v0.0.0-20250211171154-1ae217ad3535
	github.com/klauspost/cpuid/v2 v2.3.0
	github.com/tiktoken-go/tokenizer v0.7.0
	github.com/valyala/bytebufferpool v1.0.0
	golang.org/x/sys v0.34.0
	modernc.org/sqlite v1.39.0
)

require (
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/ncruces/go-strftime v0.1.9 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b // indirect
	modernc.org/libc v1.66.3 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.11.0 // indirect
)
