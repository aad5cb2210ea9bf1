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

typedef unsigned __int128 u128;

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

/* pow10_u64: 10^n for n <= 19 */
static uint64_t pow10_u64(unsigned int n)
{
	uint64_t v = 1;

	while (n--)
		v *= 10;
	return v;
}

int bw_parse_size(const char *s, uint64_t *bytes, char *why, size_t whylen)
{
	const char *p = s, *unit;
	u128 whole = 0, frac = 0, mult = 1, v;
	unsigned int nfrac = 0;

	if (!s || !*s)
		return why_set(why, whylen, "empty");
	if (*p == '-')
		return why_set(why, whylen, "negative");
	if (!isdigit((unsigned char)*p))
		return why_set(why, whylen, "not a number");
	for (; isdigit((unsigned char)*p); p++) {
		whole = whole * 10 + (u128)(*p - '0');
		if (whole > UINT64_MAX)
			return why_set(why, whylen, "out of range (at most 18446744073709551615 bytes)");
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return why_set(why, whylen, "no digits after the decimal point");
		for (; isdigit((unsigned char)*p); p++) {
			if (nfrac == 18)
				return why_set(why, whylen, "too many decimals");
			frac = frac * 10 + (u128)(*p - '0');
			nfrac++;
		}
	}
	unit = p;
	if (*p) {
		const char *units = "KMGT", *u = strchr(units, toupper((unsigned char)*p));

		if (!u)
			return why_set(why, whylen, "unknown unit '%s' (use K, M, G, T or KiB, MiB, GiB, TiB)", unit);
		mult = (u128)1 << (10 * (u - units + 1));
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
	v = whole * mult;
	if (nfrac) {
		u128 num = frac * mult, den = pow10_u64(nfrac);

		if (num % den)
			return why_set(why, whylen, "not a whole number of bytes");
		v += num / den;
	}
	if (v > UINT64_MAX)
		return why_set(why, whylen, "out of range (at most 18446744073709551615 bytes)");
	*bytes = (uint64_t)v;
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
	tenths = (uint64_t)(((u128)v * 10 + unit / 2) / unit);
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
