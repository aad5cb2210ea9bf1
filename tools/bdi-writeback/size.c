// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sizes and durations as people type them, sizes as people read them.
 *
 * A size is a decimal number of bytes, or a number with a binary unit: K, M,
 * G, T or KiB, MiB, GiB, TiB (powers of 1024; the letter in either case). A
 * fraction is allowed with a unit when it gives a whole number of bytes
 * (1.5M, not 0.1K). "MB" and friends are refused rather than guessed.
 * Nothing else is accepted: no sign, no spaces, no hexadecimal.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bdiwb.h"

static int why_set(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return BW_EXIT_SIZE;
}

/*
 * bw_mul_div: a * b / c rounded down, exactly, UINT64_MAX when the quotient
 * does not fit. The product is formed in two 64-bit halves and divided one
 * bit at a time: no 128-bit type, so that 32-bit builds have it too.
 */
uint64_t bw_mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
	uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
	uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	uint64_t q = 0, r = hi, top;
	int i;

	if (!c || hi >= c)
		return UINT64_MAX;
	for (i = 63; i >= 0; i--) {
		top = r >> 63;
		r = (r << 1) | ((lo >> i) & 1);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
}

/* pow_u64: b^n, for results that fit */
static uint64_t pow_u64(uint64_t b, unsigned int n)
{
	uint64_t v = 1;

	while (n--)
		v *= b;
	return v;
}

/*
 * frac_bytes: the bytes of FRAC / 10^NFRAC units of 2^SHIFT bytes, when that
 * is a whole number. 10^n is 2^n x 5^n and the unit has no factor 5, so the
 * fraction must be a multiple of 5^n; what is left is a binary fraction,
 * below 2^SHIFT bytes, exact in 64 bits.
 */
static int frac_bytes(uint64_t frac, unsigned int nfrac, unsigned int shift, uint64_t *v)
{
	uint64_t five;

	while (nfrac && frac % 10 == 0) {
		frac /= 10;
		nfrac--;
	}
	five = pow_u64(5, nfrac);
	if (frac % five)
		return -1;
	frac /= five;
	if (nfrac <= shift) {
		*v = frac << (shift - nfrac);
		return 0;
	}
	if (frac & ((1ULL << (nfrac - shift)) - 1))
		return -1;
	*v = frac >> (nfrac - shift);
	return 0;
}

#define OUT_OF_RANGE	"out of range (at most 18446744073709551615 bytes)"

int bw_parse_size(const char *s, uint64_t *bytes, char *why, size_t whylen)
{
	const char *p = s, *unit;
	uint64_t whole = 0, frac = 0, v, part = 0;
	unsigned int nfrac = 0, shift = 0;

	if (!s || !*s)
		return why_set(why, whylen, "empty");
	if (*p == '-')
		return why_set(why, whylen, "negative");
	if (!isdigit((unsigned char)*p))
		return why_set(why, whylen, "not a number");
	for (; isdigit((unsigned char)*p); p++) {
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return why_set(why, whylen, OUT_OF_RANGE);
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return why_set(why, whylen, "no digits after the decimal point");
		for (; isdigit((unsigned char)*p); p++) {
			if (nfrac == 18)
				return why_set(why, whylen, "too many decimals");
			frac = frac * 10 + (uint64_t)(*p - '0');
			nfrac++;
		}
	}
	unit = p;
	if (*p) {
		const char *units = "KMGT", *u = strchr(units, toupper((unsigned char)*p));

		if (!u)
			return why_set(why, whylen, "unknown unit '%s' (use K, M, G, T or KiB, MiB, GiB, TiB)", unit);
		shift = 10 * (unsigned int)(u - units + 1);
		p++;
		if ((p[0] == 'i' || p[0] == 'I') && (p[1] == 'B' || p[1] == 'b'))
			p += 2;
		else if (p[0] == 'B' || p[0] == 'b')
			return why_set(why, whylen, "ambiguous unit '%s': write K, M, G, T or KiB, MiB, GiB, TiB (powers of 1024)", unit);
		if (*p)
			return why_set(why, whylen, "unknown unit '%s' (use K, M, G, T or KiB, MiB, GiB, TiB)", unit);
	} else if (nfrac) {
		return why_set(why, whylen, "a fraction of a byte (a fraction needs a unit, e.g. 1.5M)");
	}
	if (nfrac && frac_bytes(frac, nfrac, shift, &part))
		return why_set(why, whylen, "not a whole number of bytes");
	if (shift && whole > (UINT64_MAX >> shift))
		return why_set(why, whylen, OUT_OF_RANGE);
	v = whole << shift;
	if (__builtin_add_overflow(v, part, &v))
		return why_set(why, whylen, OUT_OF_RANGE);
	*bytes = v;
	return 0;
}

int bw_parse_seconds(const char *s, uint64_t *ms, char *why, size_t whylen)
{
	const char *p = s;
	uint64_t whole = 0, frac = 0;
	unsigned int nfrac = 0;

	if (!s || !*s)
		goto bad;
	if (!isdigit((unsigned char)*p))
		goto bad;
	for (; isdigit((unsigned char)*p); p++) {
		whole = whole * 10 + (uint64_t)(*p - '0');
		if (whole > 1000000)
			return why_set(why, whylen, "too long");
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		for (; isdigit((unsigned char)*p); p++) {
			if (nfrac == 3)
				return why_set(why, whylen, "more than 3 decimals (milliseconds)");
			frac = frac * 10 + (uint64_t)(*p - '0');
			nfrac++;
		}
	}
	if (*p == 's')
		p++;
	if (*p)
		goto bad;
	while (nfrac++ < 3)
		frac *= 10;
	*ms = whole * 1000 + frac;
	return 0;
bad:
	return why_set(why, whylen, "not a number of seconds (e.g. 2 or 0.5)");
}

/* scale: the largest binary unit (1 = K ...) that v reaches, and its size */
static unsigned int scale(uint64_t v, uint64_t *unit)
{
	unsigned int i = 0;

	*unit = 1;
	while (i < 6 && v >= (*unit << 10)) {
		*unit <<= 10;
		i++;
	}
	return i;
}

static char *human(uint64_t v, char *buf, size_t len, int iec)
{
	static const char letters[] = " KMGTPE";
	uint64_t unit, tenths;
	unsigned int i = scale(v, &unit);

	if (i == 0) {
		if (iec)
			snprintf(buf, len, "%" PRIu64 " B", v);
		else
			snprintf(buf, len, "%" PRIu64 "%s", v, v ? "B" : "");
		return buf;
	}
	/* v x 10 / unit, rounded, in parts that fit: unit is at most 2^60 */
	tenths = v / unit * 10 + (v % unit * 10 + unit / 2) / unit;
	if (tenths % 10 == 0 || v % unit == 0)
		snprintf(buf, len, "%" PRIu64 "%s%c%s", tenths / 10, iec ? " " : "",
			 letters[i], iec ? "iB" : "");
	else
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%s%c%s", tenths / 10, tenths % 10,
			 iec ? " " : "", letters[i], iec ? "iB" : "");
	return buf;
}

char *bw_human(uint64_t bytes, char *buf, size_t len)
{
	return human(bytes, buf, len, 0);
}

char *bw_human_iec(uint64_t bytes, char *buf, size_t len)
{
	return human(bytes, buf, len, 1);
}
