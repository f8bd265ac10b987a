package main

import (
	"errors"
	"flag"
	"strconv"
	"time"
)

// decimal is an integer flag read the way .bir reads integers: decimal
// digits only (leading zeros are still decimal; no 0x, 0o, 0b or _), so
// that --budget 065536 is 65536 bytes and not an octal number, and no
// flag ever means something else than it reads as. Negative values are
// rejected: every integer flag of sdscgen counts something.
type decimal struct{ v *int64 }

func (d decimal) String() string {
	if d.v == nil {
		return "0"
	}
	return strconv.FormatInt(*d.v, 10)
}

func (d decimal) Set(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			if s[i] == '-' && i == 0 {
				return errors.New("must not be negative")
			}
			return errors.New("want a decimal integer (digits 0-9 only)")
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("out of range (at most 9223372036854775807)")
		}
		return errors.New("want a decimal integer (digits 0-9 only)")
	}
	*d.v = v
	return nil
}

// decimalVar defines a non-negative decimal integer flag.
func decimalVar(fs *flag.FlagSet, p *int64, name string, def int64, usage string) {
	*p = def
	fs.Var(decimal{p}, name, usage)
}

// duration is a time.Duration flag whose errors say what to write: Go's
// own says "parse error" for a number without a unit.
type duration struct{ v *time.Duration }

func (d duration) String() string {
	if d.v == nil {
		return "0s"
	}
	return d.v.String()
}

func (d duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return errors.New("a duration needs a unit: write " + s + "s (or ms, m, h)")
		}
		return errors.New("not a duration (such as 500ms, 5s or 1m)")
	}
	*d.v = v
	return nil
}

// durationVar defines a duration flag.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var(duration{p}, name, usage)
}
