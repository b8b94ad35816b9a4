package toon

import (
	"fmt"
	"testing"
	"time"
)

// checkParseUTC holds parseUTC to time.Parse on s: where parseUTC takes
// s, time.Parse must give the same time, bit for bit; where time.Parse
// takes a timestamp of parseUTC's form, parseUTC must take it too.
func checkParseUTC(t *testing.T, s string) {
	t.Helper()
	got, ok := parseUTC([]byte(s))
	want, err := time.Parse(time.RFC3339Nano, s)
	if ok {
		if err != nil {
			t.Fatalf("parseUTC(%q) took a text time.Parse rejects: %v", s, err)
		}
		if got != want {
			t.Fatalf("parseUTC(%q) = %#v, want %#v", s, got, want)
		}
		return
	}
	if err == nil && utcForm(s) {
		t.Fatalf("parseUTC(%q) left to time.Parse a text of its form (%v)", s, want)
	}
}

// utcForm reports whether s has parseUTC's form: 2006-01-02T15:04:05Z
// with 0 or 1 to 9 digits of fraction, every place a digit.
func utcForm(s string) bool {
	if len(s) < 20 || len(s) > 30 || s[len(s)-1] != 'Z' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		c := s[i]
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' {
				return false
			}
		case 13, 16:
			if c != ':' {
				return false
			}
		case 19:
			if c != '.' || len(s) == 21 {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

func TestParseUTC(t *testing.T) {
	for _, s := range []string{
		"2025-12-22T06:13:40Z", "1970-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"1969-12-31T23:59:59Z", "2000-02-29T12:00:00Z", "1900-02-29T12:00:00Z", "2024-02-29T00:00:00.5Z",
		"2023-02-29T00:00:00Z", "2025-04-31T00:00:00Z", "2025-00-10T00:00:00Z", "2025-13-10T00:00:00Z",
		"2025-01-00T00:00:00Z", "2025-01-10T24:00:00Z", "2025-01-10T23:60:00Z", "2025-01-10T23:59:60Z",
		"2025-01-10T10:00:00.Z", "2025-01-10T10:00:00.1234567890Z", "2025-01-10T10:00:00,5Z", "2025-01-10t10:00:00Z",
		"2025-01-10T10:00:00z", "2025-01-10T10:00:00+00:00", "2025-01-10T10:00:00+02:00", "2025-01-10 10:00:00Z",
		"2025-1-10T10:00:00Z", "+025-01-10T10:00:00Z", "2025-01-10T10:00:0aZ", "2025-01-10T10:00:00.1a3Z",
		"", "Z", "2025-01-10", "2025-01-10T10:00:00", "2025-01-10T10:00:00.000000000Z", "2025-01-10T10:00:00.010Z",
	} {
		checkParseUTC(t, s)
	}
	// Every day of the years around the calendar's rules (leap years,
	// century years, the eras of 400 years), with days and months out of
	// range, and fractions of every length.
	for _, y := range []int{0, 1, 3, 4, 99, 100, 399, 400, 401, 1600, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2100, 2400, 9999} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				checkParseUTC(t, fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d, (y+d)%25, (m*7+d)%61, (d*13)%61))
			}
		}
	}
	for n := 0; n <= 10; n++ {
		frac := "." + "1234567890"[:n]
		checkParseUTC(t, "2025-06-30T23:59:59"+frac+"Z")
	}
}

func FuzzParseUTC(f *testing.F) {
	f.Add("2025-12-22T06:13:40Z")
	f.Add("2024-02-29T00:00:00.123456789Z")
	f.Add("1900-02-29T12:00:00Z")
	f.Fuzz(func(t *testing.T, s string) {
		checkParseUTC(t, s)
	})
}
