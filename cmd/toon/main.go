// Command toon converts between JSON and TOON (Token-Oriented Object
// Notation), streaming, in flat memory, at gigabyte scale.
//
// Usage:
//
//	toon [flags] [input]
//
// The input is a file, or standard input when it is "-" or absent. A .json
// input is encoded to TOON, a .toon input is decoded to JSON; -e and -d
// choose the direction explicitly, and standard input is encoded unless -d
// is given. The result goes to standard output, or to the file named by -o,
// which is written under a temporary name and renamed when complete, so an
// error never leaves a half-written file behind.
//
// Exit status: 0 on success, 1 on bad input (the error is reported as
// file:line:column with the source line and a caret), 2 on bad usage.
//
// Run "toon -h" for the flags.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
