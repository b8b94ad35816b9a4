package toon

// This file holds the masks by which runFields (lineruns.go) reads field
// lines where the CPU has a kernel to make them: lineMasksAVX2
// (linemasks_amd64.s).
//
// A field line is read for its LF, its indentation (the spaces it starts
// with), its key (the key characters after the key's first byte) and
// whether it has a byte >= 0x80. By words, runFields finds the first three
// in the line's first 32 bytes, about 110 instructions a line on the
// config dataset. The kernel makes the masks of 64 bytes at once, in which
// a line finds the four with a shift or a mask and a count of trailing
// zeros each, and most lines of a nested document are short enough for the
// next line to start and end in the same 64 bytes. Made in Go, a word at a
// time, the masks cost more than the words they replace (Token on config
// 21% slower under purego), so without the kernel runFields reads by words.

// lineMasks are the masks of the 64 bytes from a place in the buffer,
// bit i of each for byte i.
type lineMasks struct {
	lf  uint64 // LFs
	sp  uint64 // spaces
	key uint64 // key characters (keyChar): ASCII letters and digits, '_' and '.'
	hi  uint64 // bytes >= 0x80
}

// lineWindow is the masks of the 64 bytes at at in the line reader's
// buffer, kept by runLines for the calls it makes to runFields (the buffer
// does not change during a run). A line that starts in them, and whose LF
// is in them too, is read from them shifted to its start; for any other,
// runFields makes the masks of the 64 bytes from the line's start.
type lineWindow struct {
	m  lineMasks
	at int
}
