//go:build !amd64 || purego

package toon

// useRowKernelAtStart: there is no row kernel here.
const useRowKernelAtStart = false

// setRowKernel does nothing here: putCells is always putCellsGo.
func setRowKernel(bool) {}
