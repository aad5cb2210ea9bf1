// SPDX-License-Identifier: GPL-2.0-or-later
#include "bdiwb.h"

int main(int argc, char **argv)
{
	return bw_main(argc, argv);
}
