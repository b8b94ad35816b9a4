//go:build !amd64 || purego

package toon

// useRowClassAVX512 is false where there is no assembly (other
// architectures, or the purego build tag): putCells tests each string
// with special as it copies it. As a constant, it leaves putCells
// without the code of the other way.
const useRowClassAVX512 = false

// strClasses is strClassesGeneric here.
func strClasses(cells []Value, dw uint64, cls *[maxClassCells]uint8) {
	strClassesGeneric(cells, dw, cls)
}
