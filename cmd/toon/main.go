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
// is given. The result goes to standard output, or to the file named by -o.
// A regular file is written under a temporary name and renamed over it
// when complete, so an error or an interrupt never leaves a half-written
// file behind; a symbolic link is followed, a file with other hard links is
// rewritten in place after the conversion, and a FIFO, device or socket is
// written directly. The output ends with a newline. On an error, output
// already written stops where the error was found, with no bracket closed.
//
// Exit status: 0 on success, 1 on bad input (the error is reported as
// file:line:column with the source line and a caret) or an I/O error, 2 on
// bad usage; interrupted by SIGINT or SIGTERM, the command ends by that
// signal, after removing its temporary file.
//
// Run "toon -h" for the flags, the output rules and the progress bar.
package main

import (
	"os"
	"sync"
)

// exitMu is held by the goroutine that handles an interrupt (onSignal)
// while it cleans up and ends the process, so that main does not exit
// first with another status.
var exitMu sync.Mutex

func main() {
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	exitMu.Lock()
	os.Exit(code)
}
