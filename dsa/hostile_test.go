package dsa

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// endless is an input without end (blank lines): it fails the read far past the
// limit so that a reader without a limit stops too.
type endless struct{ n, max int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n > e.max {
		return 0, errors.New("read far past the limit")
	}
	for i := range p {
		p[i] = '\n' // blank lines: skipped, so only the limit stops the reading
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestHostileCSV: clear messages, each naming the line and what is wrong.
func TestHostileCSV(t *testing.T) {
	long := "id,lower,upper,size\n" + "a,0,1," + strings.Repeat("1", 17<<20) + "\n"
	for _, c := range []struct{ name, in, want string }{
		{"long line", long, "x.csv:2: error: line is longer than 16777216 bytes"},
		{"huge size", "id,lower,upper,size\na,0,1,9223372036854775807\n", "x.csv:2: error: size 9223372036854775807 is larger than the maximum 4611686018427387904"},
		{"sizes add up", "id,lower,upper,size\na,0,1,4611686018427387904\nb,0,1,4611686018427387904\n", "x.csv:3: error: sizes add up to more than 4611686018427387904 bytes"},
	} {
		_, err := Read(strings.NewReader(c.in), "x.csv")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	z := &endless{max: 1 << 20}
	_, err := read(io.MultiReader(strings.NewReader("id,lower,upper,size\n"), z), "x.csv", 1000)
	if err == nil || !strings.Contains(err.Error(), "x.csv: error: input is larger than the limit of 1000 bytes") || z.n > 1<<16 {
		t.Errorf("endless input: %v", err)
	}
}

// FuzzCSV: Read never panics, and what it accepts writes back and reads
// again to the same buffers.
func FuzzCSV(f *testing.F) {
	f.Add("id,lower,upper,size\na,0,1,4\nb,1,2,8\n")
	f.Add("id,start,end,size,offset\na,0,0,4,0\n")
	f.Add("\ufeffid,lower,upper,size\r\n a , 0 , 3 , 9 \r\n")
	f.Add("id,lower,upper,size\na,0,1,9223372036854775807\n")
	f.Fuzz(func(t *testing.T, in string) {
		inst, err := Read(strings.NewReader(in), "f.csv")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		offs := make([]int64, len(inst.Buffers))
		var b strings.Builder
		if err := Write(&b, inst.Buffers, offs); err != nil {
			t.Fatal(err)
		}
		again, err := Read(strings.NewReader(b.String()), "g.csv")
		if err != nil {
			t.Fatalf("written CSV does not read back: %v\n%s", err, b.String())
		}
		if len(again.Buffers) != len(inst.Buffers) {
			t.Fatalf("%d buffers, read back %d", len(inst.Buffers), len(again.Buffers))
		}
		for i, x := range inst.Buffers {
			y := again.Buffers[i]
			if x.ID != y.ID || x.Lower != y.Lower || x.Upper != y.Upper || x.Size != y.Size {
				t.Fatalf("buffer %d: %+v read back as %+v", i, x, y)
			}
		}
	})
}
