package shell

import (
	"errors"
	"math/big"
)

// bcPrec is the working precision of bc -l's functions, in bits: far more
// than the 20 (or scale) decimals printed, so truncating the result gives
// the digits bc prints.
func bcPrec(scale int) uint { return uint(scale)*4 + 128 }

// bcLibrary evaluates bc -l's s (sine), c (cosine), a (arctangent),
// l (natural log) and e (exponential) at x, truncated to scale digits.
func bcLibrary(f byte, x bcNum, scale int) (bcNum, error) {
	prec := bcPrec(scale)
	v := new(big.Float).SetPrec(prec).SetRat(x.rat())
	var r *big.Float
	switch f {
	case 'e':
		r = bigExp(v, prec)
	case 'l':
		if v.Sign() <= 0 {
			return x, errors.New("log of a non-positive number")
		}
		r = bigLog(v, prec)
	case 's':
		r = bigSin(v, prec)
	case 'c':
		half := new(big.Float).SetPrec(prec).Quo(bigPi(prec), big.NewFloat(2))
		r = bigSin(new(big.Float).SetPrec(prec).Add(v, half), prec)
	case 'a':
		r = bigAtan(v, prec)
	default:
		return x, errors.New("unknown function")
	}
	q, _ := r.Rat(nil)
	return fromRat(q, scale), nil
}

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// epsilon is 2^-prec: where a series may stop.
func epsilon(prec uint) *big.Float { return newF(prec).SetMantExp(big.NewFloat(1), -int(prec)) }

// bigExp sums the Taylor series of e^x after halving x until it is small,
// then squares back.
func bigExp(x *big.Float, prec uint) *big.Float {
	neg := x.Sign() < 0
	y := newF(prec).Abs(x)
	k := 0
	for y.Cmp(big.NewFloat(0.5)) > 0 {
		y.Quo(y, big.NewFloat(2))
		k++
	}
	sum, term := newF(prec).SetInt64(1), newF(prec).SetInt64(1)
	eps := epsilon(prec)
	for n := int64(1); ; n++ {
		term.Mul(term, y)
		term.Quo(term, newF(prec).SetInt64(n))
		if term.Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, term)
	}
	for range k {
		sum.Mul(sum, sum)
	}
	if neg {
		sum.Quo(newF(prec).SetInt64(1), sum)
	}
	return sum
}

// bigLog computes ln x as 2·atanh((x-1)/(x+1)) after taking square roots
// until x is near 1.
func bigLog(x *big.Float, prec uint) *big.Float {
	y := newF(prec).Set(x)
	k := 0
	lo, hi := big.NewFloat(0.9), big.NewFloat(1.1)
	for y.Cmp(lo) < 0 || y.Cmp(hi) > 0 {
		y.Sqrt(y)
		k++
	}
	one := newF(prec).SetInt64(1)
	z := newF(prec).Quo(newF(prec).Sub(y, one), newF(prec).Add(y, one))
	z2 := newF(prec).Mul(z, z)
	sum, term := newF(prec).Set(z), newF(prec).Set(z)
	eps := epsilon(prec)
	for n := int64(3); ; n += 2 {
		term.Mul(term, z2)
		t := newF(prec).Quo(term, newF(prec).SetInt64(n))
		if newF(prec).Abs(t).Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, t)
	}
	sum.Mul(sum, newF(prec).SetInt64(2))
	return sum.Mul(sum, newF(prec).SetMantExp(big.NewFloat(1), k))
}

// bigAtan halves the angle until |x| is small, then sums the series.
func bigAtan(x *big.Float, prec uint) *big.Float {
	y := newF(prec).Set(x)
	k := 0
	one := newF(prec).SetInt64(1)
	for newF(prec).Abs(y).Cmp(big.NewFloat(0.25)) > 0 {
		// atan(y) = 2·atan(y / (1 + sqrt(1 + y²)))
		s := newF(prec).Mul(y, y)
		s.Add(s, one).Sqrt(s).Add(s, one)
		y.Quo(y, s)
		k++
	}
	y2 := newF(prec).Mul(y, y)
	sum, term := newF(prec).Set(y), newF(prec).Set(y)
	eps := epsilon(prec)
	for n := int64(3); ; n += 2 {
		term.Mul(term, y2).Neg(term)
		t := newF(prec).Quo(term, newF(prec).SetInt64(n))
		if newF(prec).Abs(t).Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, t)
	}
	return sum.Mul(sum, newF(prec).SetMantExp(big.NewFloat(1), k))
}

func bigPi(prec uint) *big.Float {
	return newF(prec).Mul(bigAtan(newF(prec).SetInt64(1), prec), newF(prec).SetInt64(4))
}

// bigSin reduces x modulo 2π and sums the Taylor series.
func bigSin(x *big.Float, prec uint) *big.Float {
	twoPi := newF(prec).Mul(bigPi(prec), newF(prec).SetInt64(2))
	q := newF(prec).Quo(x, twoPi)
	qi, _ := q.Int(nil)
	y := newF(prec).Sub(x, newF(prec).Mul(newF(prec).SetInt(qi), twoPi))
	y2 := newF(prec).Mul(y, y)
	sum, term := newF(prec).Set(y), newF(prec).Set(y)
	eps := epsilon(prec)
	for n := int64(2); ; n += 2 {
		term.Mul(term, y2).Neg(term)
		term.Quo(term, newF(prec).SetInt64(n*(n+1)))
		if newF(prec).Abs(term).Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}
