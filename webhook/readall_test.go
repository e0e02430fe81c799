package webhook

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAllAnnounced: the body reads whole and bounded whatever the
// announced size says, as io.ReadAll of the limited body reads it.
func TestReadAllAnnounced(t *testing.T) {
	body := strings.Repeat("x", 1000)
	for _, size := range []int64{-1, 0, 1, 999, 1000, 1001, 5000} {
		for _, n := range []int64{10, 1000, 1001, 100000} {
			for _, half := range []bool{false, true} {
				var rd io.Reader = bytes.NewReader([]byte(body))
				if half {
					rd = iotest.HalfReader(rd)
				}
				got, err := readAll(rd, n, size)
				want := body[:min(int64(len(body)), n)]
				if err != nil || string(got) != want {
					t.Errorf("size %d, bound %d, half reads %v: %d bytes, %v; want %d bytes", size, n, half, len(got), err, len(want))
				}
			}
		}
	}
	if _, err := readAll(iotest.ErrReader(iotest.ErrTimeout), 100, 50); err != iotest.ErrTimeout {
		t.Errorf("a failing read gave %v", err)
	}
}
