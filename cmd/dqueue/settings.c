/*
 * --check and --set: attr=value[,attr=value...] arguments cut into
 * settings, of those the request of each disk, and what stops a set.
 */
#include "util/util.h"
#include "dqueue.h"

/* Cut blanks in place: leading ' ' and '\t', trailing any of cut. */
static char *
strip(char *s, char *end, const char *cut)
{
	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && strchr(cut, end[-1]) != NULL)
		*--end = '\0';
	return s;
}

/* One item, "attr=value", cut in place and appended; -EINVAL said. */
static int
setting_add(struct dq_settings *out, char *item)
{
	struct dq_setting *st;
	char *eq, *a, *v, *w;

	if ((eq = strchr(item, '=')) == NULL) {
		warnx("%s: not attr=value", item);
		return -EINVAL;
	}
	*eq = '\0';
	a = strip(item, eq, " \t");
	v = strip(eq + 1, eq + 1 + strlen(eq + 1), " \t\n");
	/* Queue attributes are named in [a-z0-9_]. */
	w = strncmp(a, "iosched/", 8) == 0 ? a + 8 : a;
	if (*v == '\0' || *w == '\0' ||
	    w[strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789_")] != '\0') {
		warnx("%s: %s", a, *v == '\0' ? "empty value" :
		    "not an attribute name");
		return -EINVAL;
	}
	if (ds_grow(&out->s, &out->cap, out->n + 1, sizeof(*out->s)) < 0)
		return -ENOMEM;
	st = &out->s[out->n];
	if ((st->attr = strdup(a)) == NULL)
		return -ENOMEM;
	if ((st->value = strdup(v)) == NULL) {
		free(st->attr);
		return -ENOMEM;
	}
	out->n++;
	return 0;
}

int
dq_settings_parse(struct dq_settings *out, const char *arg)
{
	char *s, *item, *save = NULL;
	int e = 0;

	if ((s = strdup(arg)) == NULL)
		return -ENOMEM;
	/* Empty items (",,", a trailing ",") are no settings. */
	for (item = strtok_r(s, ",", &save); item != NULL && e == 0;
	    item = strtok_r(NULL, ",", &save))
		e = setting_add(out, item);
	free(s);
	return e;
}

void
dq_settings_free(struct dq_settings *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->s[i].attr);
		free(s->s[i].value);
	}
	free(s->s);
	memset(s, 0, sizeof(*s));
}

struct ds_qs_item *
dq_settings_request(const struct dq_settings *s, size_t copies)
{
	struct ds_qs_item *it;
	size_t i, k;

	if (copies > 0 && s->n > SIZE_MAX / sizeof(*it) / copies)
		return NULL;
	if ((it = calloc(s->n * copies > 0 ? s->n * copies : 1,
	    sizeof(*it))) == NULL)
		return NULL;
	for (i = 0; i < copies; i++)
		for (k = 0; k < s->n; k++) {
			it[i * s->n + k].attr = s->s[k].attr;
			it[i * s->n + k].value = s->s[k].value;
		}
	return it;
}

const struct ds_qs_item *
dq_refusal(const struct ds_qs_item *it, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (it[k].why != DS_QSV_OK)
			return &it[k];
	return NULL;
}

int
dq_outcome(const struct ds_qs_item *it, size_t n)
{
	size_t k;
	int o = 0;

	for (k = 0; k < n; k++) {
		if (it[k].state == DS_QS_SKIPPED || it[k].state == DS_QS_FAILED)
			o |= DQ_HALTED;
		if (it[k].state == DS_QS_CHANGED || it[k].state == DS_QS_FAILED)
			o |= DQ_STOPPED;
	}
	/* The last write not holding ends the request too. */
	for (k = n; k > 0 && !it[k - 1].written;)
		k--;
	if (k > 0 && it[k - 1].state == DS_QS_CHANGED)
		o |= DQ_HALTED;
	return o;
}
