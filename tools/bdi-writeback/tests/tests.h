/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TESTS_H
#define TESTS_H
int test_size(void);
int test_resolve(void);
int test_auto(void);
int test_cli(void);
int test_conf(void);
#endif
