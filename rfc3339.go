package toon

// This file reads and writes the common form of an RFC 3339 timestamp, in
// UTC: parseUTC for the decoding of time.Time (decTime) without
// time.Parse, appendTime for its encoding without time.Time.AppendFormat.

import (
	"math/bits"
	"time"
)

// parseUTC reads b when it is a timestamp in UTC of the form
// 2006-01-02T15:04:05Z, with optionally 1 to 9 digits of fractional
// seconds before the Z: the form most encoders write. It returns the time
// that time.Parse(time.RFC3339Nano, b) returns, and ok false for any other
// text (another form, or a field out of range), which the caller leaves
// to time.Parse: this is a shortcut, never a rule of its own.
func parseUTC(b []byte) (t time.Time, ok bool) {
	if len(b) < 20 || len(b) > 30 || b[4] != '-' || b[7] != '-' || b[10] != 'T' ||
		b[13] != ':' || b[16] != ':' || b[len(b)-1] != 'Z' {
		return t, false
	}
	year, ok1 := readDigits4(b[0:4])
	month, ok2 := readDigits2(b[5:7])
	day, ok3 := readDigits2(b[8:10])
	hour, ok4 := readDigits2(b[11:13])
	minute, ok5 := readDigits2(b[14:16])
	sec, ok6 := readDigits2(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour > 23 || minute > 59 || sec > 59 {
		return t, false
	}
	ns := 0
	if frac := b[19 : len(b)-1]; len(frac) > 0 {
		// A fraction: a dot and 1 to 9 digits.
		if len(frac) < 2 || frac[0] != '.' {
			return t, false
		}
		scale := 1_000_000_000
		for _, c := range frac[1:] {
			c -= '0'
			if c > 9 {
				return t, false
			}
			scale /= 10
			ns += int(c) * scale
		}
	}
	secs := daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+sec)
	return time.Unix(secs, int64(ns)).UTC(), true
}

// readDigits2 reads two decimal digits.
func readDigits2(b []byte) (int, bool) {
	d0, d1 := b[0]-'0', b[1]-'0'
	return int(d0)*10 + int(d1), d0 <= 9 && d1 <= 9
}

// readDigits4 reads four decimal digits.
func readDigits4(b []byte) (int, bool) {
	hi, ok1 := readDigits2(b[0:2])
	lo, ok2 := readDigits2(b[2:4])
	return hi*100 + lo, ok1 && ok2
}

// daysIn returns the number of days of month (1 to 12) in year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch returns the number of days from 1970-01-01 to the given
// date of the proleptic Gregorian calendar (year 0 to 9999), counting in
// eras of 400 years, which all have the same number of days.
func daysSinceEpoch(year, month, day int) int64 {
	if month <= 2 {
		year-- // the year counted from March, so that February ends it
	}
	era := (year + 400) / 400 // year -1 belongs to era -1: shift by one era
	era--
	yoe := year - era*400                          // [0, 399]
	doy := (153*((month+9)%12)+2)/5 + day - 1      // [0, 365], from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy         // [0, 146096]
	return int64(era)*146097 + int64(doe) - 719468 // 719468: 0000-03-01 to 1970-01-01
}

// appendTime appends the text of a time.Time: RFC 3339 with nanoseconds,
// as encoding/json writes it (time.RFC3339Nano: the fraction without its
// trailing zeros, none if it is zero). A time in UTC of the years 0 to
// 9999, the usual case, is written here, the digits of its date and of
// its clock a word each (digits8) and stored with their separators;
// every other time by time.Time.AppendFormat.
func appendTime(b []byte, t *time.Time) []byte {
	if t.Location() != time.UTC {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	y, mo, d := t.Date()
	if uint(y) > 9999 {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	hh, mm, ss := t.Clock()
	ns := uint64(t.Nanosecond())
	b, p, o := spare(b, timeRoom, false)
	// YYYYMMDD, stored as YYYY-MM-DD.
	w := digits8(uint64(y)*10000+uint64(mo)*100+uint64(d)) + '0'*lo8
	p.Store64(0, w&0xffffffff|'-'<<32|(w>>32&0xffff)<<40|'-'<<56)
	p.Store16(8, uint16(w>>48))
	// 00hhmmss, stored as Thh:mm:ss.
	w = digits8(uint64(hh)*10000+uint64(mm)*100+uint64(ss)) + '0'*lo8
	p.Store64(10, 'T'|(w>>16&0xffff)<<8|':'<<24|(w>>32&0xffff)<<32|':'<<48|(w>>48&0xff)<<56)
	p.SetByte(18, byte(w>>56))
	n := 19
	if ns != 0 {
		// The point and nine digits, cut after the last that is not 0.
		p.SetByte(19, '.')
		d := digits8(ns / 10)
		p.Store64(20, d+'0'*lo8)
		p.SetByte(28, byte(ns%10)+'0')
		n = 29
		if ns%10 == 0 {
			// The zeros of d's last digits are its high bytes, as in
			// putFloat8's fraction; d is not 0.
			n = 28 - bits.LeadingZeros64(d)>>3
		}
	}
	p.SetByte(n, 'Z')
	return b[:o+n+1]
}

// timeRoom is the room appendTime needs for a time it writes itself.
const timeRoom = 32
