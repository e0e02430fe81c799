package durations

import (
	"math"
	"math/big"
	"strings"
	"testing"
	"time"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		unit time.Duration
		want time.Duration
	}{
		{0, time.Second, 0},
		{3, time.Millisecond, 3 * time.Millisecond},
		{-3, time.Second, -3 * time.Second},
		{int64(Max / time.Second), time.Second, Max / time.Second * time.Second},
		{int64(Max/time.Second) + 1, time.Second, Max},
		{math.MaxInt64, time.Millisecond, Max},
		{math.MaxInt64 / 1000, time.Millisecond, Max},
		{int64(Max / time.Millisecond), time.Millisecond, Max / time.Millisecond * time.Millisecond},
		{int64(Max/time.Millisecond) + 1, time.Millisecond, Max},
		{math.MinInt64, time.Millisecond, Min},
		{int64(Min/time.Second) - 1, time.Second, Min},
		{math.MaxInt64, time.Nanosecond, Max},
		{math.MinInt64, time.Nanosecond, Min},
		{5, 0, 0},
		{5, -time.Second, 0},
	} {
		if got := Of(tc.n, tc.unit); got != tc.want {
			t.Errorf("Of(%d, %v) = %v, want %v", tc.n, tc.unit, got, tc.want)
		}
	}
}

func TestOfFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		unit time.Duration
		want time.Duration
		ok   bool
	}{
		{1.5, time.Second, 1500 * time.Millisecond, true},
		{1.0000000001, time.Second, time.Second + 1, true}, // rounded up
		{1e300, time.Millisecond, Max, true},
		{9.3e18, time.Nanosecond, Max, true},
		{0x1p63, time.Nanosecond, Max, true},
		{-0x1p63, time.Nanosecond, Min, true},
		{-1e300, time.Second, Min, true},
		{math.Inf(1), time.Second, Max, true},
		{math.Inf(-1), time.Second, Min, true},
		{math.NaN(), time.Second, 0, false},
		{1, 0, 0, false},
	} {
		got, ok := OfFloat(tc.f, tc.unit)
		if got != tc.want || ok != tc.ok {
			t.Errorf("OfFloat(%v, %v) = %v, %v; want %v, %v", tc.f, tc.unit, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseUnits(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"120", 120, true},
		{"0000000000000000000000000003", 3, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", math.MaxInt64, true},
		{"99999999999999999999", math.MaxInt64, true},
		{strings.Repeat("9", 1000), math.MaxInt64, true},
		{strings.Repeat("9", 30) + "x", 0, false},
		{"", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{" 1", 0, false},
	} {
		got, ok := ParseUnits(tc.s)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseUnits(%q) = %d, %v; want %d, %v", tc.s, got, ok, tc.want, tc.ok)
		}
	}
}

func TestClamp(t *testing.T) {
	if Clamp(Max, 0, time.Minute) != time.Minute || Clamp(Min, 0, time.Minute) != 0 || Clamp(time.Second, 0, time.Minute) != time.Second {
		t.Fatal("Clamp")
	}
}

// FuzzOf checks Of against exact arithmetic: n·unit clamped to the bounds.
func FuzzOf(f *testing.F) {
	f.Add(int64(math.MaxInt64), int64(time.Millisecond))
	f.Add(int64(math.MinInt64), int64(time.Second))
	f.Add(int64(9223372036855), int64(time.Millisecond))
	f.Fuzz(func(t *testing.T, n, unit int64) {
		if unit <= 0 {
			return
		}
		exact := new(big.Int).Mul(big.NewInt(n), big.NewInt(unit))
		want := Max
		switch {
		case exact.IsInt64():
			want = time.Duration(exact.Int64())
		case exact.Sign() < 0:
			want = Min
		}
		if got := Of(n, time.Duration(unit)); got != want {
			t.Fatalf("Of(%d, %d) = %d, want %d", n, unit, got, want)
		}
	})
}
