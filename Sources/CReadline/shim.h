#ifndef KVO_CREADLINE_SHIM_H
#define KVO_CREADLINE_SHIM_H
// readline's headers use FILE without including <stdio.h> themselves.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
#endif
