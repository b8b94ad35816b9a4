//go:build !amd64 || purego

package toon

// rowKernels lists the row kernels that run here: none.
func rowKernels() []rowKernel { return nil }
