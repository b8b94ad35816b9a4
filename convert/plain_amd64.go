//go:build !purego

package convert

import "github.com/klauspost/cpuid/v2"

// usePlainAVX512: putPlainAVX512 can run (the features plain_amd64.s
// lists). Resolved once at start-up; tests switch it to compare the paths.
var usePlainAVX512 = cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.BMI2)

// putPlainAVX512 is putPlain with one masked load, four compares and one
// masked store; it reports false, as
// putPlain does, for a string longer than maxFast or one that needs an
// escape, and also when d has no room for the string and its quotes. See
// plain_amd64.s.
//
//go:noescape
func putPlainAVX512(d, s []byte) bool
