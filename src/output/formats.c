/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output format table. */
#include <string.h>

#include "distsec/output.h"

extern const struct ds_output ds_output_text, ds_output_json, ds_output_sarif, ds_output_junit,
                               ds_output_tmt, ds_output_html;

const struct ds_output *const ds_outputs[] = {
	&ds_output_text,
	&ds_output_json,
	&ds_output_sarif,
	&ds_output_junit,
	&ds_output_tmt,
	&ds_output_html,
	NULL,
};

const struct ds_output *ds_output_find(const char *name)
{
	for (size_t i = 0; ds_outputs[i]; i++)
		if (strcmp(ds_outputs[i]->name, name) == 0)
			return ds_outputs[i];
	return NULL;
}
