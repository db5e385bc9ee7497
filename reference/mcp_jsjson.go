package toolnexus

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsStringifyRaw rewrites raw JSON the way JSON.stringify(JSON.parse(raw)) would: compact,
// keys in the order written (a repeated key keeps its first place and its last value),
// strings with only the escapes JSON.stringify makes (non-ASCII and <&> stay literal, a
// lone surrogate becomes \udxxx), and every number as a JavaScript number prints (1.0 is
// 1, 1e2 is 100, 1.5e-7 stays 1.5e-7; out of range is null).
//
// Unlike a JavaScript object, integer-like keys are not moved to the front: the server's
// order is what the shared contract pins.
func jsStringifyRaw(raw []byte) (string, error) {
	p := &jsParser{src: raw}
	p.space()
	v, err := p.value()
	if err != nil {
		return "", err
	}
	p.space()
	if p.i != len(p.src) {
		return "", errors.New("trailing data after the JSON value")
	}
	var b strings.Builder
	v.write(&b)
	return b.String(), nil
}

// jsValue is a parsed JSON value; exactly one field says which kind.
type jsValue struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'l' literal
	keys []string
	vals []*jsValue
	text string  // string contents (WTF-8: lone surrogates kept) or the literal
	num  float64 // number
}

type jsParser struct {
	src []byte
	i   int
}

var errJSBad = errors.New("invalid JSON")

func (p *jsParser) space() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsParser) value() (*jsValue, error) {
	if p.i >= len(p.src) {
		return nil, errJSBad
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		return &jsValue{kind: 's', text: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.src[p.i:min(len(p.src), p.i+len(lit))]), lit) {
				p.i += len(lit)
				return &jsValue{kind: 'l', text: lit}, nil
			}
		}
		return nil, errJSBad
	}
}

func (p *jsParser) object() (*jsValue, error) {
	p.i++ // {
	v := &jsValue{kind: 'o'}
	at := map[string]int{}
	p.space()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return nil, errJSBad
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return nil, errJSBad
		}
		p.i++
		p.space()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		if j, seen := at[key]; seen {
			v.vals[j] = val
		} else {
			at[key] = len(v.keys)
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, val)
		}
		p.space()
		if p.i >= len(p.src) {
			return nil, errJSBad
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return v, nil
		default:
			return nil, errJSBad
		}
	}
}

func (p *jsParser) array() (*jsValue, error) {
	p.i++ // [
	v := &jsValue{kind: 'a'}
	p.space()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.vals = append(v.vals, val)
		p.space()
		if p.i >= len(p.src) {
			return nil, errJSBad
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return v, nil
		default:
			return nil, errJSBad
		}
	}
}

func (p *jsParser) number() (*jsValue, error) {
	start := p.i
	if p.src[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.src) && p.src[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, errJSBad
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, errJSBad
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, errJSBad
		}
	}
	// ParseFloat rounds to nearest as JavaScript does; out of range it gives ±Inf.
	f, err := strconv.ParseFloat(string(p.src[start:p.i]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, errJSBad
	}
	return &jsValue{kind: 'n', num: f}, nil
}

// str reads a JSON string into WTF-8: valid text as UTF-8, and a lone surrogate (which
// JavaScript strings can hold) as its own three-byte form, so write can give it back.
// Bytes that are not UTF-8 become U+FFFD, as a UTF-8 decoder would read them.
func (p *jsParser) str() (string, error) {
	p.i++ // "
	var b []byte
	for {
		if p.i >= len(p.src) {
			return "", errJSBad
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c == '\\':
			if p.i+1 >= len(p.src) {
				return "", errJSBad
			}
			e := p.src[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				u, ok := p.hex4()
				if !ok {
					return "", errJSBad
				}
				if u >= 0xD800 && u < 0xDC00 && p.i+1 < len(p.src) && p.src[p.i] == '\\' && p.src[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo < 0xE000 {
						b = utf8.AppendRune(b, rune(0x10000+(u-0xD800)<<10+(lo-0xDC00)))
						continue
					}
					p.i = save
				}
				b = appendWTF8(b, u)
			default:
				return "", errJSBad
			}
		case c < 0x20:
			return "", errJSBad
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.src[p.i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, p.src[p.i:p.i+size]...)
			}
			p.i += size
		}
	}
}

func (p *jsParser) hex4() (int, bool) {
	if p.i+4 > len(p.src) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.src[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return int(n), true
}

// appendWTF8 writes a code point, a surrogate included, as three-byte-or-shorter UTF-8 form.
func appendWTF8(b []byte, u int) []byte {
	if u >= 0xD800 && u < 0xE000 {
		return append(b, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
	}
	return utf8.AppendRune(b, rune(u))
}

func (v *jsValue) write(b *strings.Builder) {
	switch v.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSString(b, k)
			b.WriteByte(':')
			v.vals[i].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	case 's':
		writeJSString(b, v.text)
	case 'n':
		b.WriteString(jsNumberJSON(v.num))
	default:
		b.WriteString(v.text)
	}
}

// writeJSString quotes s as JSON.stringify does: only ", \, and control characters are
// escaped (\b \t \n \f \r short, the rest \u00xx), and a lone surrogate becomes \udxxx.
func writeJSString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\t':
				b.WriteString(`\t`)
			case '\n':
				b.WriteString(`\n`)
			case '\f':
				b.WriteString(`\f`)
			case '\r':
				b.WriteString(`\r`)
			default:
				if c < 0x20 {
					b.WriteString(`\u00`)
					b.WriteByte(hex[c>>4])
					b.WriteByte(hex[c&0xF])
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if i+2 < len(s) && c == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
				u := int(c&0x0F)<<12 | int(s[i+1]&0x3F)<<6 | int(s[i+2]&0x3F)
				b.WriteString(`\u`)
				for shift := 12; shift >= 0; shift -= 4 {
					b.WriteByte(hex[(u>>shift)&0xF])
				}
				i += 3
				continue
			}
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	b.WriteByte('"')
}

// jsNumberJSON is JSON.stringify of a number: NaN and the infinities are null.
func jsNumberJSON(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	return jsNumberString(f)
}

// jsNumberString is ECMAScript Number::toString(10) for a finite float64: the shortest
// digits that read back as the same number, written plainly when the decimal exponent n
// is in -6 < n <= 21, else as d.ddde±x.
func jsNumberString(f float64) string {
	if f == 0 {
		return "0" // -0 too
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±xx, shortest round trip
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	expSign := "+"
	if n-1 < 0 {
		expSign = "-"
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	return sign + out + "e" + expSign + strconv.Itoa(jsAbs(n-1))
}

func jsAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
