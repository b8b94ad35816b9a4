//go:build !amd64 || purego

package toon

// archScanImpls is empty where there is no assembly (other architectures, or
// the purego build tag): scanLine always runs scanLineGeneric.
var archScanImpls []scanImpl

// scanRawKernels is empty for the same reason (see scan_amd64.go).
var scanRawKernels []scanImpl
