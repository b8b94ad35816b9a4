// Package guardpage gives this module's tests memory next to which a read
// faults: Page returns a page between two inaccessible pages, so that a
// kernel that reads one byte before or after its slice kills the test
// binary. It is for tests only, and exists on Linux only.
package guardpage
