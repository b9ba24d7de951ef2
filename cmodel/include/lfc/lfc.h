/*
 * lfc/lfc.h - everything: the link word, the switch of docs/SPEC.md, its end nodes, links and
 * the star testbed. Include this, link with -llfc (pkg-config lfc).
 */
#ifndef LFC_LFC_H
#define LFC_LFC_H

#include "lfc/types.h"
#include "lfc/parse.h"
#include "lfc/switch.h"
#include "lfc/nic.h"
#include "lfc/link.h"
#include "lfc/star.h"
#include "lfc/version.h"

#endif /* LFC_LFC_H */
