package longtest

import "testing"

func TestEnabled(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true, "yes": true} {
		if got := enabled(v); got != want {
			t.Errorf("enabled(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestSize checks that Size and Skip follow On.
func TestSize(t *testing.T) {
	if n := Size(t, 1, 2); (n == 2) != On() {
		t.Fatalf("Size(1, 2) = %d with On() = %v", n, On())
	}
	ran := false
	t.Run("skip", func(t *testing.T) {
		Skip(t, "this subtest")
		ran = true
	})
	if ran != On() {
		t.Fatalf("the subtest ran: %v, with On() = %v", ran, On())
	}
}
