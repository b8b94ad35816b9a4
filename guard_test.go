//go:build linux

package toon

// guardedCopies copies src to both ends of page, a page from
// guardpage.Page, and returns the two copies: the first ends at the
// page's last byte, against the inaccessible page after it, the second
// starts at its first byte, right after the inaccessible page before it.
// Their capacities end with them, so that a kernel that reads one byte
// outside its slice faults and the test binary dies.
func guardedCopies(page, src []byte) [2][]byte {
	n, end := len(src), len(page)
	c := [2][]byte{page[end-n : end : end], page[:n:n]}
	copy(c[0], src)
	copy(c[1], src)
	return c
}
