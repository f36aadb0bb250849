/* Escaping of text fields for each output format. */
#include <errno.h>
#include <string.h>

#include "internal.h"

size_t
ds_utf8_len(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)	/* continuation, overlong, > U+10FFFF */
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong 3- and 4-byte forms, surrogates, past U+10FFFF. */
	if (c == 0xe0 && s[1] < 0xa0)
		return 0;
	if (c == 0xed && s[1] > 0x9f)
		return 0;
	if (c == 0xf0 && s[1] < 0x90)
		return 0;
	if (c == 0xf4 && s[1] > 0x8f)
		return 0;
	return n;
}

static int
put(struct ds_buf *b, const char *s, size_t n)
{
	int e;

	if ((e = ds_buf_reserve(b, n)) < 0)
		return e;
	/* memcpy(3) of nothing from NULL is still undefined. */
	if (n > 0)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

/*
 * The invisible controls of bidirectional text: U+061C, U+200E, U+200F,
 * U+202A to U+202E, U+2066 to U+2069.  Shown raw, U+202E turns the
 * rest of a line around ("exe.txt" shows as "txt.exe").
 */
static int
bidi(const unsigned char *u, size_t n)
{
	if (n == 2)
		return u[0] == 0xd8 && u[1] == 0x9c;
	if (n != 3 || u[0] != 0xe2)
		return 0;
	if (u[1] == 0x80)
		return u[2] == 0x8e || u[2] == 0x8f ||
		    (u[2] >= 0xaa && u[2] <= 0xae);
	return u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9;
}

int
ds_esc_json(struct ds_buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char esc[7];
	size_t i = 0, n;
	int e;

	if ((e = put(b, "\"", 1)) < 0)
		return e;
	while (i < len) {
		unsigned c = u[i];

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
			size_t j = i;
			while (j < len && u[j] >= 0x20 && u[j] != '"' &&
			    u[j] != '\\' && u[j] < 0x7f)
				j++;
			if ((e = put(b, s + i, j - i)) < 0)
				return e;
			i = j;
			continue;
		}
		if (c >= 0x80) {
			n = ds_utf8_len(u + i, len - i);
			if (n == 0) {
				e = put(b, "\\ufffd", 6);
				n = 1;
			} else if ((n == 2 && c == 0xc2 && u[i + 1] < 0xa0) ||
			    bidi(u + i, n)) {
				/* C1 and bidi controls: the same text, as \u. */
				unsigned cp = n == 2 ? (c & 0x1f) << 6 |
				    (u[i + 1] & 0x3f) : (c & 0x0f) << 12 |
				    (u[i + 1] & 0x3f) << 6 | (u[i + 2] & 0x3f);

				memcpy(esc, "\\u", 2);
				esc[2] = hex[cp >> 12];
				esc[3] = hex[cp >> 8 & 15];
				esc[4] = hex[cp >> 4 & 15];
				esc[5] = hex[cp & 15];
				e = put(b, esc, 6);
			} else {
				e = put(b, s + i, n);
			}
			if (e < 0)
				return e;
			i += n;
			continue;
		}
		switch (c) {
		case '"': e = put(b, "\\\"", 2); break;
		case '\\': e = put(b, "\\\\", 2); break;
		case '\n': e = put(b, "\\n", 2); break;
		case '\t': e = put(b, "\\t", 2); break;
		case '\r': e = put(b, "\\r", 2); break;
		case '\b': e = put(b, "\\b", 2); break;
		case '\f': e = put(b, "\\f", 2); break;
		default:
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			e = put(b, esc, 6);
		}
		if (e < 0)
			return e;
		i++;
	}
	return put(b, "\"", 1);
}

int
ds_esc_prom(struct ds_buf *b, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;
	int e;

	while (i < len) {
		switch (u[i]) {
		case '\\': e = put(b, "\\\\", 2); n = 1; break;
		case '"': e = put(b, "\\\"", 2); n = 1; break;
		case '\n': e = put(b, "\\n", 2); n = 1; break;
		default:
			n = ds_utf8_len(u + i, len - i);
			if (n == 0) {
				/* Label values must be UTF-8: U+FFFD. */
				e = put(b, "\xef\xbf\xbd", 3);
				n = 1;
			} else {
				e = put(b, s + i, n);
			}
		}
		if (e < 0)
			return e;
		i += n;
	}
	return 0;
}

int
ds_esc_msg(struct ds_buf *b, const char *s, size_t len)
{
	return ds_esc_table(b, s, len);
}

/*
 * For a terminal, and for TSV, which reaches one through a pipe
 * ("dqueue | grep sda"): tab, newline, CR and backslash as \t \n \r \\,
 * every other control byte as \xHH, so a name cannot move the cursor or
 * change colours.  That includes the C1 controls (U+0080 to U+009F,
 * which a terminal may take for CSI and friends), any byte that is not
 * part of valid UTF-8 (a lone 0x9b is CSI to an 8-bit terminal), and
 * the bidi controls.  The backslash being escaped, the text can be
 * turned back into the name.  NUL is \0 in TSV, \x00 in table.
 */
static char
named(unsigned char c, int tsv)
{
	switch (c) {
	case '\t': return 't';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\\': return '\\';
	case '\0': return tsv ? '0' : 0;
	default: return 0;
	}
}

static int
esc_text(struct ds_buf *b, const char *s, size_t len, int tsv)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char esc[4] = { '\\', 'x', 0, 0 }, two[2] = { '\\', 0 };
	size_t i, k, n, start = 0;
	int e;

	for (i = 0; i < len; i += n) {
		n = 1;
		if (u[i] >= 0x80) {
			n = ds_utf8_len(u + i, len - i);
			if (n > 1 && !(u[i] == 0xc2 && u[i + 1] < 0xa0) &&
			    !bidi(u + i, n))
				continue;
			if (n == 0)
				n = 1;
		} else if (u[i] >= 0x20 && u[i] != 0x7f && u[i] != '\\') {
			continue;
		}
		if ((e = put(b, s + start, i - start)) < 0)
			return e;
		if ((two[1] = named(u[i], tsv)) != 0) {
			e = put(b, two, 2);
		} else {
			for (k = i, e = 0; k < i + n && e == 0; k++) {
				esc[2] = hex[u[k] >> 4];
				esc[3] = hex[u[k] & 15];
				e = put(b, esc, 4);
			}
		}
		if (e < 0)
			return e;
		start = i + n;
	}
	return put(b, s + start, len - start);
}

int
ds_esc_table(struct ds_buf *b, const char *s, size_t len)
{
	return esc_text(b, s, len, 0);
}

int
ds_esc_tsv(struct ds_buf *b, const char *s, size_t len)
{
	return esc_text(b, s, len, 1);
}
