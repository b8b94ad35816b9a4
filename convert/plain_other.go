//go:build !amd64 || purego

package convert

// usePlainAVX512 is false where there is no assembly (other
// architectures, or the purego build tag): putPlain always runs
// putPlainGeneric. As a constant, it leaves putPlain without the branch.
const usePlainAVX512 = false

// putPlainAVX512 is never called here.
func putPlainAVX512(d, s []byte) bool { return putPlainGeneric(d, s) }
