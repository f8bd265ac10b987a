// Package decimal formats integers in decimal the way strconv.AppendInt
// does, faster for the small values the MLIR printer and the plan JSON
// writer print by the million. It is their one implementation.
package decimal

// digits2 holds the two-digit decimal strings 00 to 99.
const digits2 = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// Append appends v in decimal, as strconv.AppendInt(b, v, 10) does,
// without a loop up to 16 digits: the values sdscgen prints are nearly
// all below 10^4 (SSA numbers, ids, maps, counts) or 10^10 (sizes and
// pool addresses).
func Append(b []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		b = append(b, '-')
		u = -u
	}
	switch {
	case u < 1e4:
		return Append4(b, u)
	case u < 1e8:
		return append4x(Append4(b, u/1e4), u%1e4)
	case u < 1e16:
		hi, lo := u/1e8, u%1e8
		if hi < 1e4 {
			b = Append4(b, hi)
		} else {
			b = append4x(Append4(b, hi/1e4), hi%1e4)
		}
		return append4x(append4x(b, lo/1e4), lo%1e4)
	}
	return appendLong(b, u)
}

// Append4 appends u < 10^4 in decimal.
func Append4(b []byte, u uint64) []byte {
	if u < 100 {
		if u < 10 {
			return append(b, byte('0'+u))
		}
		return append(b, digits2[2*u], digits2[2*u+1])
	}
	q, r := u/100, 2*(u%100)
	if q < 10 {
		return append(b, byte('0'+q), digits2[r], digits2[r+1])
	}
	return append(b, digits2[2*q], digits2[2*q+1], digits2[r], digits2[r+1])
}

// append4x appends u < 10^4 as exactly four digits.
func append4x(b []byte, u uint64) []byte {
	q, r := 2*(u/100), 2*(u%100)
	return append(b, digits2[q], digits2[q+1], digits2[r], digits2[r+1])
}

// appendLong appends u in decimal, two digits at a time.
func appendLong(b []byte, u uint64) []byte {
	var d [20]byte
	i := len(d)
	for u >= 100 {
		q := u / 100
		r := (u - q*100) * 2
		i -= 2
		d[i], d[i+1] = digits2[r], digits2[r+1]
		u = q
	}
	if u >= 10 {
		i -= 2
		d[i], d[i+1] = digits2[2*u], digits2[2*u+1]
	} else {
		i--
		d[i] = byte('0' + u)
	}
	return append(b, d[i:]...)
}
