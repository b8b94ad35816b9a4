//go:build !purego

package toon

// archScanImpls will hold the AVX2 and AVX-512 kernels; until they land the
// generic implementation runs everywhere.
var archScanImpls []scanImpl

// scanRawKernels lists the kernels without their short-line shortcuts.
var scanRawKernels []scanImpl
