package toon

import "bytes"

// scanLineGeneric is the portable implementation of scanLine and the
// reference every other implementation must match.
func scanLineGeneric(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	r := lineScan{colon: -1, bracket: -1}
	if bytes.IndexByte(line, '"') < 0 {
		// No quotes: every structural byte counts.
		if delim != 0 {
			for i, c := range line {
				if c == delim {
					seps = append(seps, int32(i))
				}
			}
		}
		r.colon = bytes.IndexByte(line, ':')
		r.bracket = bytes.IndexByte(line, '[')
		return seps, r
	}
	r.quote = true
	inq := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inq {
			switch c {
			case '\\':
				i++
			case '"':
				inq = false
			}
			continue
		}
		switch c {
		case '"':
			inq = true
		case ':':
			if r.colon < 0 {
				r.colon = i
			}
		case '[':
			if r.bracket < 0 {
				r.bracket = i
			}
		}
		if c == delim {
			seps = append(seps, int32(i))
		}
	}
	r.open = inq
	return seps, r
}
