/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The check registry: one line per check, in the order `distsec checks` lists. */
#include <string.h>

#include "distsec/check.h"

extern const struct ds_check ds_check_elf_pie, ds_check_elf_relro, ds_check_elf_execstack,
	ds_check_elf_nodrop_groups, ds_check_elf_chroot_chdir, ds_check_elf_tmp_name,
	ds_check_elf_canary, ds_check_elf_stack_clash, ds_check_elf_cf_protection,
	ds_check_elf_optimization, ds_check_elf_fortify, ds_check_elf_rpath, ds_check_elf_badfuncs, ds_check_elf_textrel,
	ds_check_elf_cet, ds_check_elf_static, ds_check_elf_static_nopic, ds_check_script_sh_syntax, ds_check_script_sh_tmp,
	ds_check_script_sh_nul,
	ds_check_script_py_chroot_chdir, ds_check_file_hidden_exec, ds_check_file_world_writable,
	ds_check_file_capabilities, ds_check_file_setid, ds_check_file_symlink, 	ds_check_file_stig,
	ds_check_selinux_dev_label, ds_check_selinux_unconfined_daemon, ds_check_image_root_user,
	ds_check_elf_not_judged;

const struct ds_check *const ds_checks[] = {
	&ds_check_elf_pie,
	&ds_check_elf_relro,
	&ds_check_elf_execstack,
	&ds_check_elf_nodrop_groups,
	&ds_check_elf_chroot_chdir,
	&ds_check_elf_tmp_name,
	&ds_check_elf_canary,
	&ds_check_elf_stack_clash,
	&ds_check_elf_cf_protection,
	&ds_check_elf_optimization,
	&ds_check_elf_fortify,
	&ds_check_elf_rpath,
	&ds_check_elf_badfuncs,
	&ds_check_elf_textrel,
	&ds_check_elf_cet,
	&ds_check_elf_static,
	&ds_check_elf_static_nopic,
	&ds_check_script_sh_syntax,
	&ds_check_script_sh_tmp,
	&ds_check_script_sh_nul,
	&ds_check_script_py_chroot_chdir,
	&ds_check_file_hidden_exec,
	&ds_check_file_world_writable,
	&ds_check_file_capabilities,
	&ds_check_file_setid,
	&ds_check_file_symlink,
	&ds_check_file_stig,
	&ds_check_selinux_dev_label,
	&ds_check_selinux_unconfined_daemon,
	&ds_check_image_root_user,
	&ds_check_elf_not_judged,
	&ds_check_scan_unreadable,
};

const size_t ds_nchecks = sizeof ds_checks / sizeof ds_checks[0];

const struct ds_check *ds_check_find(const char *id)
{
	for (size_t i = 0; i < ds_nchecks; i++)
		if (strcmp(ds_checks[i]->id, id) == 0)
			return ds_checks[i];
	return NULL;
}

int ds_fact_value(const struct ds_fact *fa, json_object *details, int severity)
{
	json_object *v;
	if (fa->type == DS_FACT_FINDING)
		return severity > DS_SEV_PASS;
	if (!fa->key || !details || !json_object_object_get_ex(details, fa->key, &v))
		return -1;
	switch (fa->type) {
	case DS_FACT_BOOL:
		return json_object_get_boolean(v) ? 1 : 0;
	case DS_FACT_COUNT:
		return json_object_get_int(v) > 0;
	case DS_FACT_LEVEL:
		if (!json_object_is_type(v, json_type_string))
			return -1;
		for (int i = 0; fa->levels && fa->levels[i]; i++)
			if (!strcmp(json_object_get_string(v), fa->levels[i]))
				return i;
		return -2;
	default:
		return -1;
	}
}
