module github.com/toonstream/toon

go 1.23

require (
	github.com/klauspost/cpuid/v2 v2.3.0
	github.com/valyala/bytebufferpool v1.0.0
	golang.org/x/sys v0.30.0
)
